module Resque
  Version = VERSION = '2.0.0'
end
