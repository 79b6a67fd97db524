# Deployment config of osctl's OpenStudio Server test environment (overlaid on upstream's
# lib/tasks/resque.rake, which sets Resque.redis to the docker host queue:6379): the same tasks,
# with Resque's Redis from REDIS_URL as upstream's config/initializers/redis.rb reads it.
require 'resque/tasks'
task 'resque:setup' => :environment

namespace :resque do
  task :setup do
    require 'resque'
    ENV['QUEUE'] = ''
    uri = URI.parse(ENV.fetch('REDIS_URL'))
    Resque.redis = Redis.new(host: uri.host, port: uri.port, password: uri.password)
  end
end
