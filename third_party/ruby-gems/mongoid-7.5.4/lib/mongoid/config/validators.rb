# frozen_string_literal: true

require "mongoid/config/validators/option"
require "mongoid/config/validators/client"
