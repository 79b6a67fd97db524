require 'mongoid'
require 'mongoid/compatibility/self'
require 'mongoid/compatibility/version'
require 'mongoid/compatibility/object_id'
