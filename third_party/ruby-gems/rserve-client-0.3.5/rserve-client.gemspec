# A plain gemspec written for osctl's vendored copy (see ../README.md): upstream's lists its files
# with git, or is generated; name, version and licence are upstream's. No dependencies: the
# deployment's Gemfile names every gem the app loads.
Gem::Specification.new do |s|
  s.name = 'rserve-client'
  s.version = '0.3.5'
  s.summary = 'rserve-client 0.3.5, vendored for osctl tests'
  s.authors = ['see README']
  s.license = 'LGPL-2.1+'
  s.files = Dir.chdir(__dir__) { Dir['lib/**/*'] }
  s.require_paths = ['lib']
end
