# frozen_string_literal: true

module Mongoid
  VERSION = "7.5.4"
end
