# coding: UTF-8
module Terrapin
  VERSION = "0.6.0".freeze
end
