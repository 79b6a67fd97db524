
require 'rserve/simpler'
R = Rserve::Simpler.new
