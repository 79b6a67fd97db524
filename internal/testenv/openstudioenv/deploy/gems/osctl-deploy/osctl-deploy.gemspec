# What upstream's image gets from Ruby 2.7 and this environment must restore on Debian's Ruby 3.1.
Gem::Specification.new do |s|
  s.name = 'osctl-deploy'
  s.version = '1.0.0'
  s.summary = "Ruby 2.7's Kernel#open of URLs for OpenStudio Server on Ruby 3.1 (osctl tests)"
  s.authors = ['osctl']
  s.license = 'Apache-2.0'
  s.files = ['lib/osctl_deploy.rb']
  s.require_paths = ['lib']
end
