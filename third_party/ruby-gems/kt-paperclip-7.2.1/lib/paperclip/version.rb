module Paperclip
  VERSION = "7.2.1" unless defined?(Paperclip::VERSION)
end
