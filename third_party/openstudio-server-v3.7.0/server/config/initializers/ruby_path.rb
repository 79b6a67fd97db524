# *******************************************************************************
# OpenStudio(R), Copyright (c) Alliance for Sustainable Energy, LLC.
# See also https://openstudio.net/license
# *******************************************************************************

# Set the ruby path so that child processes and R know where to call it.

RUBY_BIN_DIR = '/opt/rbenv/shims'.freeze
