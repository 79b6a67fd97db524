# *******************************************************************************
# OpenStudio(R), Copyright (c) Alliance for Sustainable Energy, LLC.
# See also https://openstudio.net/license
# *******************************************************************************

module OpenstudioServer
  VERSION = '3.7.0'.freeze
  # format should be ^.*\-{1}[a-z]+[0-9]+
  # for example: -rc1, -beta6, -customusecase0
  VERSION_EXT = ''.freeze # with preceding - or +
  OS_SHA = 'd5269793f1'.freeze
end
