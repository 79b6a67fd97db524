# *******************************************************************************
# OpenStudio(R), Copyright (c) Alliance for Sustainable Energy, LLC.
# See also https://openstudio.net/license
# *******************************************************************************

namespace :datapoints do
  desc 'test uploading a result_file'
  task test_file_upload: :environment do
    # This test has been removed.
    puts 'Look at the simulate_data_point.rb to see how we are uploading files'
  end
end
