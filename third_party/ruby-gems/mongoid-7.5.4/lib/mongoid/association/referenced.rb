# frozen_string_literal: true

require 'mongoid/association/referenced/auto_save'
require 'mongoid/association/referenced/counter_cache'
require 'mongoid/association/referenced/syncable'
require 'mongoid/association/referenced/belongs_to'
require 'mongoid/association/referenced/has_many'
require 'mongoid/association/referenced/has_and_belongs_to_many'
require 'mongoid/association/referenced/has_one'
