# *******************************************************************************
# OpenStudio(R), Copyright (c) Alliance for Sustainable Energy, LLC.
# See also https://openstudio.net/license
# *******************************************************************************

# This is not needed for Rails 5.1 because we are not using ActiveRecord because of mongoid
# class ApplicationRecord < ActiveRecord::Base
#   self.abstract_class = true
# end
