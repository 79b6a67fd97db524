# frozen_string_literal: true

# The API of osctl_lock.rb against real Redis masters: OSCTL_TEST_REDIS is a comma-separated list
# of redis:// URLs (three independent redis-server processes; contrib/rails's Go test
# TestRubySuite starts them and runs this file). Without it every test fails: it never passes
# without Redis.
#
#   OSCTL_TEST_REDIS=redis://127.0.0.1:6379,redis://127.0.0.1:6380,redis://127.0.0.1:6381 \
#     ruby contrib/rails/test/osctl_lock_test.rb

require 'minitest/autorun'
require 'tmpdir'
require 'redis'
require_relative '../osctl_lock'

class OsctlLockTest < Minitest::Test
  def setup
    @urls = ENV.fetch('OSCTL_TEST_REDIS') { flunk 'OSCTL_TEST_REDIS is not set: run this through `go test ./contrib/rails/`' }.split(',')
    @redis = @urls.map { |u| Redis.new(url: u) }
    @lock = OsctlLock.new(urls: @urls, ttl: 5, pod: 'web-1')
    @key = OsctlLock.key("t-#{SecureRandom.hex(4)}", 'analysis_zip')
  end

  def teardown
    @redis&.each(&:close)
  end

  def values(key = @key)
    @redis.map { |r| r.get(key) }
  end

  def test_key_and_fence_key
    assert_equal 'redlock:a1:analysis_zip', OsctlLock.key('a1', 'analysis_zip')
    assert_equal 'osctl:fence:redlock:a1:analysis_zip', OsctlLock.fence_key('redlock:a1:analysis_zip')
  end

  def test_synchronize_returns_the_block_value_and_releases
    seen = nil
    got = @lock.synchronize(@key) do |lease|
      seen = values
      refute lease.lost?
      assert_operator lease.remaining, :>, 4
      :the_value
    end
    assert_equal :the_value, got
    assert seen.all? { |v| v&.start_with?('osctl:v1:web-1:') }, "held on every master: #{seen}"
    assert_equal [nil, nil, nil], values, 'released on every master'
  end

  def test_holder_value_format
    value = @lock.synchronize(@key, &:value)
    assert_match(/\Aosctl:v1:web-1:#{Process.pid}:[a-z2-7]{16}\z/, value)
    other = OsctlLock.new(urls: @urls, ttl: 5, pod: 'a:b').synchronize(@key, &:value)
    assert_match(/\Aosctl:v1:a_b:\d+:/, other, 'a colon in the pod name is replaced, as pkg/lock does')
    refute_equal value, @lock.synchronize(@key, &:value), 'every acquisition has its own random part'
  end

  def test_default_pod_is_pod_name_then_hostname
    old = ENV.to_h.slice('POD_NAME', 'HOSTNAME')
    ENV['POD_NAME'] = 'openstudio-web-abc'
    assert_equal 'openstudio-web-abc', OsctlLock.new(urls: @urls).pod
    ENV.delete('POD_NAME')
    ENV['HOSTNAME'] = 'host-from-env'
    assert_equal 'host-from-env', OsctlLock.new(urls: @urls).pod
    ENV.delete('HOSTNAME')
    assert_equal Socket.gethostname, OsctlLock.new(urls: @urls).pod
  ensure
    %w[POD_NAME HOSTNAME].each { |k| old.key?(k) ? ENV[k] = old[k] : ENV.delete(k) }
  end

  def test_holder_value_records_the_pod_namespace
    old = ENV.to_h.slice('POD_NAME', 'POD_NAMESPACE', 'HOSTNAME')
    ENV['POD_NAME'] = 'openstudio-web-abc'
    ENV['POD_NAMESPACE'] = 'openstudio'
    lock = OsctlLock.new(urls: @urls, ttl: 5)
    assert_equal 'openstudio', lock.namespace
    assert_match(/\Aosctl:v1:openstudio-web-abc:#{Process.pid}:[a-z2-7]{16}:openstudio\z/, lock.synchronize(@key, &:value))
    assert_nil OsctlLock.new(urls: @urls, ttl: 5, pod: 'resque-vm-7').namespace, 'a pod part other than POD_NAME names no pod'
    assert_match(/\Aosctl:v1:web-1:\d+:[a-z2-7]{16}\z/, @lock.synchronize(@key, &:value), 'no namespace, no namespace part')
    assert_equal 'other', OsctlLock.new(urls: @urls, ttl: 5, pod: 'web-2', namespace: 'other').namespace
    assert_raises(ArgumentError) { OsctlLock.new(urls: @urls, namespace: 'Not_A_Namespace') }
    ENV['POD_NAMESPACE'] = 'Bad_Namespace'
    assert_nil OsctlLock.new(urls: @urls).namespace, 'an invalid POD_NAMESPACE is not recorded'
    ENV.delete('POD_NAME')
    ENV['POD_NAMESPACE'] = 'openstudio'
    ENV['HOSTNAME'] = 'host-from-env'
    assert_nil OsctlLock.new(urls: @urls).namespace, 'HOSTNAME alone names no pod'
  ensure
    %w[POD_NAME POD_NAMESPACE HOSTNAME].each { |k| old.key?(k) ? ENV[k] = old[k] : ENV.delete(k) }
  end

  def test_released_when_the_block_raises
    err = assert_raises(RuntimeError) { @lock.synchronize(@key) { raise 'boom' } }
    assert_equal 'boom', err.message
    assert_equal [nil, nil, nil], values
  end

  def test_tokens_increase
    tokens = Array.new(3) { @lock.synchronize(@key, &:token) }
    assert_equal [tokens[0], tokens[0] + 1, tokens[0] + 2], tokens
    assert_equal tokens.last.to_s, @redis[0].get(OsctlLock.fence_key(@key))
  end

  def test_token_above_every_counter_of_a_quorum
    # Counters 5, 5, 1 (pkg/lock's TestFencingCounters551): INCR would repeat a token.
    fk = OsctlLock.fence_key(@key)
    [5, 5, 1].each_with_index { |n, i| @redis[i].set(fk, n) }
    tokens = Array.new(3) { @lock.synchronize(@key, &:token) }
    assert_equal [6, 7, 8], tokens
  end

  def test_not_acquired_while_held
    other = OsctlLock.new(urls: @urls, ttl: 5, retry_count: 2, retry_delay: 0.01)
    @lock.synchronize(@key) do
      err = assert_raises(OsctlLock::NotAcquired) { other.synchronize(@key) { flunk 'held twice' } }
      assert_includes err.message, @key
      assert_includes err.message, 'held by another holder'
    end
    assert_equal :free, other.synchronize(@key) { :free }
  end

  def test_retries_can_be_given_per_call
    @lock.synchronize(@key) do
      t0 = OsctlLock.now
      assert_raises(OsctlLock::NotAcquired) { @lock.synchronize(@key, retry_count: 1) {} }
      assert_operator OsctlLock.now - t0, :<, 2
    end
    assert_raises(ArgumentError) { @lock.synchronize(@key, retry_count: 0) {} }
  end

  def test_check_raises_lost_once_the_value_is_gone_from_a_majority
    err = assert_raises(OsctlLock::Lost) do
      @lock.synchronize(@key) do |lease|
        lease.check!
        Thread.handle_interrupt(OsctlLock::Lost => :never) do # hold back the keeper's raise to see check!
          @redis[0].del(@key)
          @redis[1].del(@key)
          sleep 0.05 until lease.lost?
          lease.check!
        end
        flunk 'check! did not raise'
      end
    end
    assert_includes err.message, 'gone or replaced on masters [0, 1]'
    refute_kind_of StandardError, err, 'Lost must not be swallowed by rescue => e'
  end

  def test_lost_reaches_a_block_that_never_checks
    ticks = 0
    t0 = OsctlLock.now
    err = assert_raises(OsctlLock::Lost) do
      @lock.synchronize(@key) do
        @redis[1].del(@key)
        @redis[2].del(@key)
        loop do
          begin
            ticks += 1
            sleep 0.02
          rescue StandardError
            flunk 'Lost is a StandardError'
          end
        end
      end
    end
    assert err.lease.lost?
    assert_operator OsctlLock.now - t0, :<, 5, 'told at the next renewal (every TTL/3), within one TTL'
    assert_operator ticks, :>, 0
  end

  def test_lost_after_the_block_returned_is_raised_by_synchronize
    err = assert_raises(OsctlLock::Lost) do
      @lock.synchronize(@key) do
        @redis[0].del(@key)
        @redis[1].del(@key)
        :done # returns before any renewal noticed
      end
    end
    assert_includes err.message, 'no longer held on a quorum at release'
  end

  def test_nested_locks
    inner_key = OsctlLock.key('nested', SecureRandom.hex(4))
    got = @lock.synchronize(@key) do |outer|
      @lock.synchronize(inner_key) { |inner| [outer.token, inner.token] }
    end
    assert_equal 2, got.size
    assert_equal [nil, nil, nil], values(inner_key)
  end

  def test_argument_errors
    assert_raises(ArgumentError) { OsctlLock.new(urls: []) }
    assert_raises(ArgumentError) { OsctlLock.new(urls: @urls, ttl: 4) }
    assert_raises(ArgumentError) { OsctlLock.new(urls: @urls, ttl: 31) }
    assert_raises(ArgumentError) { @lock.synchronize('') {} }
    assert_raises(ArgumentError) { @lock.synchronize(@key) }
  end

  def test_from_env
    both = { 'REDLOCK_URLS' => @urls.join(','), 'REDIS_URL' => 'redis://:pw@queue:6379' }
    assert_equal 3, OsctlLock.from_env(both).masters.size
    one = OsctlLock.from_env({ 'REDIS_URL' => 'redis://:secret-pw@queue:6379' })
    assert_equal ['master #0 redis://:xxxxx@queue:6379'], one.masters
    refute_includes one.inspect, 'secret-pw'
    err = assert_raises(ArgumentError) { OsctlLock.from_env({}) }
    assert_includes err.message, 'REDLOCK_URLS'
  end

  def test_write_file_replaces_whole_and_records_the_token
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'original', 'analysis.zip')
      fence = File.join(dir, OsctlLock::SharedFiles::FENCE_FILE)
      token = @lock.synchronize(@key) do |lease|
        OsctlLock::SharedFiles.write_file(path, lease, fence_file: fence) { |f| f.write('zip-1') }
        lease.token
      end
      assert_equal 'zip-1', File.read(path)
      assert_equal token, OsctlLock::SharedFiles.recorded_token(fence)
      assert_equal [], Dir.children(File.dirname(path)).grep(/osctl-tmp/)
    end
  end

  # Writes analysis.zip, which holds 'old', under the lock with write (given the file and the
  # lease), which must end in error: the old file stays whole, and nothing else is left.
  def assert_old_file_kept(error, &write)
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'analysis.zip')
      File.write(path, 'old')
      assert_raises(error) do
        @lock.synchronize(@key) do |lease|
          OsctlLock::SharedFiles.write_file(path, lease, fence_file: File.join(dir, '.osctl-fence')) { |f| write.call(f, lease) }
        end
      end
      assert_equal 'old', File.read(path)
      assert_equal ['analysis.zip'], Dir.children(dir)
    end
  end

  def test_write_file_leaves_the_old_file_on_an_error
    assert_old_file_kept(IOError) do |f, _lease|
      f.write('half')
      raise IOError, 'upload cut'
    end
  end

  def test_write_file_never_renames_after_the_lock_was_lost
    assert_old_file_kept(OsctlLock::Lost) do |f, lease|
      f.write('half of the new zip')
      @redis[0].del(@key)
      @redis[2].del(@key)
      sleep 0.1 until lease.lost? # Lost lands here, in the middle of the write
      f.write('the rest')
    end
  end

  def test_fenced_when_a_newer_token_wrote
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'analysis.zip')
      fence = File.join(dir, '.osctl-fence')
      File.write(path, 'newer')
      File.write(fence, "999999\n")
      err = assert_raises(OsctlLock::Fenced) do
        @lock.synchronize(@key) do |lease|
          OsctlLock::SharedFiles.write_file(path, lease, fence_file: fence) { |f| f.write('stale') }
        end
      end
      assert_includes err.message, 'token 999999 already wrote'
      assert_equal 'newer', File.read(path)
      assert_equal 999_999, OsctlLock::SharedFiles.recorded_token(fence)
    end
  end

  def test_replace_dir_swaps_whole
    Dir.mktmpdir do |dir|
      target = File.join(dir, 'analyses', 'a1')
      FileUtils.mkdir_p(target)
      File.write(File.join(target, 'old-only.txt'), 'x')
      fence = File.join(dir, '.osctl-fence')
      token = @lock.synchronize(@key) do |lease|
        OsctlLock::SharedFiles.replace_dir(target, lease, fence_file: fence) do |tmp|
          File.write(File.join(tmp, 'seed.osm'), 'new')
        end
        lease.token
      end
      assert_equal %w[.osctl-fence seed.osm], Dir.children(target).sort, 'nothing of the old directory is merged in'
      assert_equal token, OsctlLock::SharedFiles.recorded_token(File.join(target, '.osctl-fence'))
      assert_equal token, OsctlLock::SharedFiles.recorded_token(fence)
      assert_equal ['a1'], Dir.children(File.dirname(target)), 'no temp or old directory left'
    end
  end

  def test_replace_dir_leaves_the_old_directory_on_an_error
    Dir.mktmpdir do |dir|
      target = File.join(dir, 'a1')
      FileUtils.mkdir_p(target)
      File.write(File.join(target, 'old.txt'), 'x')
      assert_raises(RuntimeError) do
        @lock.synchronize(@key) do |lease|
          OsctlLock::SharedFiles.replace_dir(target, lease, fence_file: File.join(dir, '.osctl-fence')) do |tmp|
            File.write(File.join(tmp, 'part'), 'y')
            raise 'corrupt zip'
          end
        end
      end
      assert_equal ['old.txt'], Dir.children(target)
      assert_equal ['a1'], Dir.children(dir)
    end
  end
end
