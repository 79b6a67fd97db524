# An empty stand-in for resque-web 0.0.12, which config/routes.rb requires and mounts at /resque:
# its dashboard needs the asset pipeline that this environment leaves out (no JSON route uses it).
Gem::Specification.new do |s|
  s.name = 'resque-web'
  s.version = '0.0.12'
  s.summary = 'an empty ResqueWeb::Engine for osctl tests'
  s.authors = ['osctl']
  s.license = 'MIT'
  s.files = ['lib/resque_web.rb']
  s.require_paths = ['lib']
end
