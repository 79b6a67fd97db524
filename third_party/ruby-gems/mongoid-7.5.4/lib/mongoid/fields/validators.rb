# frozen_string_literal: true

require "mongoid/fields/validators/macro"
