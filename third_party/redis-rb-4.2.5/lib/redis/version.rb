# frozen_string_literal: true

class Redis
  VERSION = '4.2.5'
end
