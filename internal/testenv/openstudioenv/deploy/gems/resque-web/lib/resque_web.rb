# An empty stand-in for resque-web's engine (see ../resque-web.gemspec).
module ResqueWeb
  class Engine < ::Rails::Engine
    isolate_namespace ResqueWeb
  end
end
