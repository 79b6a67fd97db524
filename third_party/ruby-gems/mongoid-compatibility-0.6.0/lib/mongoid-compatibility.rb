require 'mongoid/compatibility'
