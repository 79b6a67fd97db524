# frozen_string_literal: true

# Upstream's image runs Ruby 2.7, where open-uri makes Kernel#open open URLs. The simulation
# worker downloads the analysis zip with open(url) (app/jobs/dj_jobs/run_simulate_data_point.rb);
# Ruby 3.0 removed that, so on Debian's Ruby 3.1 it gets ENOENT and retries 12 times. This restores
# Ruby 2.7's behaviour: a String that looks like a URL, or an object with #open that is not a
# path, is opened by open-uri; anything else by the original Kernel#open.
require 'open-uri'

module Kernel
  private

  alias osctl_original_open open
  class << self
    alias osctl_original_open open
  end

  def open(name, *rest, **kw, &block)
    if name.respond_to?(:to_str) && %r{\A[A-Za-z][A-Za-z0-9+\-.]*://}.match?(name.to_str)
      URI.open(name.to_str, *rest, **kw, &block)
    elsif name.respond_to?(:open) && !name.respond_to?(:to_path) && !name.respond_to?(:to_str)
      name.open(*rest, **kw, &block)
    else
      osctl_original_open(name, *rest, **kw, &block)
    end
  end
  module_function :open
end
