module Mongoid
  module Compatibility
    VERSION = '0.6.0'.freeze
  end
end
