# frozen_string_literal: true
# encoding: utf-8

# Wire Protocol Base
require 'mongo/protocol/serializers'
require 'mongo/protocol/registry'
require 'mongo/protocol/bit_vector'
require 'mongo/protocol/message'

# Client Requests
require 'mongo/protocol/compressed'
require 'mongo/protocol/delete'
require 'mongo/protocol/get_more'
require 'mongo/protocol/insert'
require 'mongo/protocol/kill_cursors'
require 'mongo/protocol/query'
require 'mongo/protocol/update'
require 'mongo/protocol/msg'

# Server Responses
require 'mongo/protocol/reply'
