require 'mongoid_paperclip'
