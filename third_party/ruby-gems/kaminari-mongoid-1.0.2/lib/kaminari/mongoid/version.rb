# frozen_string_literal: true
module Kaminari
  module Mongoid
    VERSION = '1.0.2'
  end
end
