# frozen_string_literal: true
# encoding: utf-8

# Copyright (C) 2015-2020 MongoDB Inc.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#   http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

module Mongo
  module Operation
    class Explain

      # A MongoDB explain command operation sent as a legacy wire protocol message.
      #
      # @api private
      #
      # @since 2.0.0
      class Legacy
        include Specifiable
        include Executable
        include ReadPreferenceSupported
        include PolymorphicResult

        private

        def message(connection)
          if spec[:collation] && !connection.features.collation_enabled?
            raise Error::UnsupportedCollation
          end

          Protocol::Query.new(
            db_name,
            coll_name,
            Find::Builder::Legacy.selector(spec, connection),
            options(connection).update(
              Find::Builder::Legacy.query_options(spec, connection),
            ),
          )
        end
      end
    end
  end
end
