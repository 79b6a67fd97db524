# *******************************************************************************
# OpenStudio(R), Copyright (c) Alliance for Sustainable Energy, LLC.
# See also https://openstudio.net/license
# *******************************************************************************

# Be sure to restart your server when you modify this file.

Rails.application.config.session_store :cookie_store, key: '_openstudio_server_session'
