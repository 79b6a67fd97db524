# frozen_string_literal: true

require "mongoid/clients/validators/storage"
