# A plain gemspec written for osctl's vendored copy (see ../README.md): upstream's lists its files
# with git, or is generated; name, version and licence are upstream's. No dependencies: the
# deployment's Gemfile names every gem the app loads.
Gem::Specification.new do |s|
  s.name = 'vegas'
  s.version = '0.1.11'
  s.summary = 'vegas 0.1.11, vendored for osctl tests'
  s.authors = ['see README']
  s.license = 'MIT'
  s.files = Dir.chdir(__dir__) { Dir['lib/**/*'] }
  s.require_paths = ['lib']
end
