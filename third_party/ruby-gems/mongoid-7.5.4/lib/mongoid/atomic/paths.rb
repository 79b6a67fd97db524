# frozen_string_literal: true

require "mongoid/atomic/paths/embedded"
require "mongoid/atomic/paths/root"
