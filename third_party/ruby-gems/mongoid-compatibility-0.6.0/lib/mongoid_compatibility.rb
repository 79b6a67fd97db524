require 'mongoid-compatibility'
