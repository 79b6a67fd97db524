# frozen_string_literal: true

# OsctlLock: the Ruby half of osctl's Redis lock, for OpenStudio Server.
#
# One self-contained file: plain Ruby (2.7 or newer) and the redis gem (4.x or 5.x), nothing
# else. It speaks the contract in docs/migration/rails-lock-contract.md exactly as osctl's Go
# library pkg/lock does (docs/locking.md): the same keys, holder values, drift rule, fencing
# counters and Lua scripts, so a Ruby holder and a Go holder of one key exclude each other and
# share one increasing sequence of fencing tokens, and `osctl locks inspect` shows Ruby holders
# like its own. How to wire it into OpenStudio Server: docs/migration/rails.md.
#
#   LOCK = OsctlLock.new(urls: ENV.fetch('REDLOCK_URLS').split(','))   # TTL 10 s
#   LOCK.synchronize(OsctlLock.key(analysis.id, 'analysis_zip')) do |lease|
#     ...                        # renewed every TTL/3 in a background thread
#     lease.check!               # raises OsctlLock::Lost once the lock is lost
#   end                          # released on every master, also after an exception
#
# When the lock is lost (a renewal cannot reach a majority of the masters, or the validity runs
# out first), OsctlLock::Lost is raised in the thread running the block with Thread#raise, so
# work that never checks still stops. Lost is not a StandardError: `rescue => e` does not
# swallow it. Ensure blocks still run; see docs/migration/rails.md for writing the block so
# that a half-done write is never renamed into place (OsctlLock::SharedFiles does that).

require 'redis'
require 'securerandom'
require 'socket'
require 'uri'
require 'fileutils'
require 'digest/sha1'

class OsctlLock
  # TTL bounds and default, in seconds (pkg/lock MinTTL, MaxTTL, DefaultTTL; contrib/rails's
  # TestLockDefaultsMatchPkgLock checks these constants, and the docs, against pkg/lock).
  MIN_TTL = 5
  MAX_TTL = 30
  DEFAULT_TTL = 10
  # Acquisition attempts by default (pkg/lock DefaultTries). The default delay between them,
  # 0.2 s, is redlock-rb's, not pkg/lock's.
  DEFAULT_RETRY_COUNT = 32
  # A held lock is renewed every TTL/RENEW_DIVISOR (pkg/lock RenewDivisor).
  RENEW_DIVISOR = 3

  KEY_PREFIX = 'redlock:'
  FENCE_PREFIX = 'osctl:fence:'
  HOLDER_PREFIX = 'osctl:v1:'

  # Share of the TTL subtracted from every validity for clock drift (redsync's and pkg/lock's rule:
  # the lock is known held until start + ttl - (ttl * 0.01 + 0.002), start taken before the first
  # command).
  DRIFT_FACTOR = 0.01
  # Seconds added to every drift allowance (pkg/lock's DriftMin, redsync's and redlock-rb's 2 ms).
  DRIFT_MIN = 0.002
  # Share of the TTL one acquisition round may wait for the masters (redsync's timeout factor).
  OP_TIMEOUT_FACTOR = 0.05
  # How many times the fencing write is retried with a higher candidate (pkg/lock fenceWriteTries).
  FENCE_WRITE_TRIES = 5
  # Consecutive tries on which too few masters answered at all (refused, timed out) for a
  # quorum, after which synchronize stops retrying: a master that is down does not come back
  # within a request's patience, and a request must not hang on it.
  UNREACHABLE_TRIES = 3
  # Connections per master: one for each thread using it at once; a hung master ties up at most
  # this many (each for one I/O timeout).
  POOL_SIZE = 4
  # What replaces a password in messages (as osctl's pkg/redact).
  MASK = 'xxxxx'

  # pkg/lock's and redsync's Lua scripts, byte for byte, so that they have the same SHA1 and do
  # the same thing whichever language holds the lock.
  #
  # delIfValue (pkg/lock): delete KEYS[1] where it holds ARGV[1]; 1 deleted, 0 another value, -1 none.
  DEL_IF_VALUE = "\nlocal v = redis.call('GET', KEYS[1])\n" \
                 "if v == ARGV[1] then return redis.call('DEL', KEYS[1]) end\n" \
                 "if v == false then return -1 end\n" \
                 "return 0\n"
  # setIfGreater (pkg/lock): raise the fencing counter to ARGV[1] only when that is larger;
  # {1, new} when raised, {0, current} when not.
  SET_IF_GREATER = "\nlocal cur = tonumber(redis.call('GET', KEYS[1]) or '0')\n" \
                   "if cur == nil then return redis.error_reply('fencing counter ' .. KEYS[1] .. ' is not an integer') end\n" \
                   "local want = tonumber(ARGV[1])\n" \
                   "if want > cur then\n" \
                   "  redis.call('SET', KEYS[1], ARGV[1])\n" \
                   "  return {1, want}\n" \
                   "end\n" \
                   "return {0, cur}\n"
  # touchScript (redsync, used by pkg/lock's renewal): PEXPIRE to the full TTL where the value is
  # still ours; never re-creates a key that is gone.
  TOUCH = "\n\tif redis.call(\"GET\", KEYS[1]) == ARGV[1] then\n" \
          "\t\treturn redis.call(\"PEXPIRE\", KEYS[1], ARGV[2])\n" \
          "\telse\n" \
          "\t\treturn 0\n" \
          "\tend\n"

  SHAS = [DEL_IF_VALUE, SET_IF_GREATER, TOUCH].map { |src| [src, Digest::SHA1.hexdigest(src)] }.to_h.freeze
  private_constant :SHAS

  # Base of the errors a caller may rescue (all StandardError).
  class Error < StandardError; end

  # The lock could not be acquired: another holder has it, or too few masters answered. The
  # message says which, naming the masters (passwords masked).
  class NotAcquired < Error; end

  # A write was refused because a holder with a newer fencing token already wrote.
  class Fenced < Error; end

  # The lock was lost while the block ran: a renewal did not reach a majority of the masters, or
  # the validity ran out before a renewal succeeded. Raised in the block's thread by Thread#raise
  # the moment the loss is known, by Lease#check!, and by synchronize when the block returned but
  # the lock had been lost before it was released (the work may have overlapped another holder's).
  # It is deliberately not a StandardError, so that `rescue => e` and `rescue StandardError`
  # (and retry loops built on them) do not swallow it: rescue OsctlLock::Lost by name.
  class Lost < Exception # rubocop:disable Lint/InheritException
    attr_reader :key, :lease

    def initialize(message = 'lock lost', key: nil, lease: nil)
      super(message)
      @key = key
      @lease = lease
    end
  end

  # A master that had not answered when a round was decided.
  class NoAnswer < Error; end

  # One master's reply in a round: value, or error (nil when it answered).
  Reply = Struct.new(:value, :error)

  attr_reader :ttl, :quorum, :retry_count, :retry_delay, :pod, :namespace

  # The lock key of one step of one analysis: redlock:<analysis_id>:<step>.
  def self.key(analysis_id, step)
    "#{KEY_PREFIX}#{analysis_id}:#{step}"
  end

  # The fencing counter of a lock key: osctl:fence:<lock key>.
  def self.fence_key(lock_key)
    "#{FENCE_PREFIX}#{lock_key}"
  end

  # An OsctlLock over the masters in REDLOCK_URLS (comma-separated, 3 or 5 independent masters),
  # else REDIS_URL (the one Resque uses). Other options as for new.
  def self.from_env(env = ENV, **options)
    list = env['REDLOCK_URLS'].to_s.strip
    list = env['REDIS_URL'].to_s.strip if list.empty?
    if list.empty?
      raise ArgumentError, 'OsctlLock: neither REDLOCK_URLS nor REDIS_URL is set: set REDLOCK_URLS to ' \
                           'redis://host:6379 (comma-separated for several independent masters)'
    end
    new(urls: list.split(',').map(&:strip).reject(&:empty?), **options)
  end

  # The holder value of one acquisition: osctl:v1:<pod>:<pid>:<random>[:<namespace>], random being
  # 80 random bits in lower-case base32 (16 characters), exactly as pkg/lock's lock.Holder. The
  # namespace is there only when known (see default_namespace): `osctl locks` judges a holder
  # gone only when its pod is missing from the namespace its value records.
  def self.holder_value(pod, namespace = nil)
    v = "#{HOLDER_PREFIX}#{pod.to_s.tr(':', '_')}:#{Process.pid}:#{random_part}"
    namespace.to_s.empty? ? v : "#{v}:#{namespace}"
  end

  # A Kubernetes namespace name (an RFC 1123 label), as pkg/lock's IsNamespaceName.
  NAMESPACE_NAME = /\A[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\z/.freeze

  # The namespace part of holder values by default: POD_NAMESPACE (the downward API's
  # metadata.namespace), only when pod is this pod's own name, POD_NAME (metadata.name): a
  # HOSTNAME may differ from the pod's name, and a VM's names no pod. nil otherwise.
  def self.default_namespace(pod)
    name = ENV['POD_NAME'].to_s
    ns = ENV['POD_NAMESPACE'].to_s
    return nil if name.empty? || name.tr(':', '_') != pod.to_s.tr(':', '_') || !NAMESPACE_NAME.match?(ns)

    ns
  end

  # The pod part of holder values by default: POD_NAME, HOSTNAME, then the host name.
  def self.default_pod
    %w[POD_NAME HOSTNAME].each do |var|
      v = ENV[var].to_s
      return v unless v.empty?
    end
    h = Socket.gethostname.to_s
    h.empty? ? 'unknown' : h
  rescue SystemCallError
    'unknown'
  end

  B32 = 'abcdefghijklmnopqrstuvwxyz234567'
  private_constant :B32

  def self.random_part
    n = SecureRandom.random_bytes(10).unpack1('H*').to_i(16)
    (0...16).map { |i| B32[(n >> (75 - 5 * i)) & 31] }.join
  end

  # text with URL passwords (and the given secrets) replaced by MASK.
  def self.mask(text, secrets = [])
    out = text.to_s.gsub(%r{(\w+://[^:/@\s]*:)[^@\s]*@}) { "#{Regexp.last_match(1)}#{MASK}@" }
    secrets.each { |s| out = out.gsub(s, MASK) if s && s.length >= 3 }
    out
  end

  # A monotonic clock in seconds: validities never move with the wall clock.
  def self.now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  # urls: one Redis URL per independent master (redis:// or rediss://, password in the URL).
  # ttl: the lock's time to live in seconds, 5-30. retry_count, retry_delay: acquisition attempts
  # and the mean delay between them in seconds (each delay is drawn from [d/2, 3d/2)). pod: the
  # pod part of holder values (default POD_NAME, HOSTNAME, then the host name). namespace: the
  # pod's Kubernetes namespace, recorded in holder values (default POD_NAMESPACE when the pod part
  # is POD_NAME, else none; '' for none). logger: gets a
  # warning when a lock is lost or a release did not reach a quorum (default: none).
  # Raises ArgumentError for an empty URL list, a malformed URL, a TTL outside 5-30 s, or a namespace
  # that is not a namespace name. It does
  # not connect: connections are made on first use (and again after a fork).
  def initialize(urls:, ttl: DEFAULT_TTL, retry_count: DEFAULT_RETRY_COUNT, retry_delay: 0.2, pod: nil, namespace: nil, logger: nil)
    urls = Array(urls).map { |u| u.to_s.strip }.reject(&:empty?)
    if urls.empty?
      raise ArgumentError, 'OsctlLock.new: no Redis URLs given: pass urls: with one redis:// URL per ' \
                           'independent master (for example from REDLOCK_URLS or REDIS_URL)'
    end
    raise ArgumentError, "OsctlLock.new: ttl #{ttl.inspect} is not a number of seconds: use #{MIN_TTL} to #{MAX_TTL}" unless ttl.is_a?(Numeric)
    unless ttl >= MIN_TTL && ttl <= MAX_TTL
      raise ArgumentError, "OsctlLock.new: ttl #{ttl.inspect} is outside #{MIN_TTL}-#{MAX_TTL} s: " \
                           "use a TTL of #{MIN_TTL} to #{MAX_TTL} seconds (default #{DEFAULT_TTL}); it is renewed while held"
    end
    check_retries(retry_count, retry_delay)
    @secrets = urls.flat_map { |u| url_secrets(u) }
    seen = {}
    @masters = urls.each_with_index.map do |u, i|
      check_url(u)
      norm = u.sub(%r{/+\z}, '')
      raise ArgumentError, "OsctlLock.new: #{OsctlLock.mask(u, @secrets)} is given twice: every URL must be a different master" if seen[norm]

      seen[norm] = true
      Master.new(u, "master ##{i} #{OsctlLock.mask(u, @secrets)}", io_timeout_for(ttl))
    end
    @ttl = ttl.to_f
    @ttl_ms = (@ttl * 1000).round
    @drift = @ttl * DRIFT_FACTOR + DRIFT_MIN
    @op_timeout = [@ttl * OP_TIMEOUT_FACTOR, 0.05].max
    @release_timeout = [@ttl / 5, 0.5].max
    @renew_every = @ttl / RENEW_DIVISOR
    @quorum = @masters.size / 2 + 1
    @retry_count = retry_count
    @retry_delay = retry_delay.to_f
    @pod = pod.to_s.empty? ? OsctlLock.default_pod : pod.to_s
    @namespace = namespace.nil? ? OsctlLock.default_namespace(@pod) : namespace.to_s
    unless @namespace.nil? || @namespace.empty? || NAMESPACE_NAME.match?(@namespace)
      raise ArgumentError, "OsctlLock.new: namespace #{@namespace.inspect} is not a Kubernetes namespace name: " \
                           'pass the pod\'s namespace (lower-case letters, digits and -), or none'
    end
    @logger = logger
  end

  # Names of the masters, passwords masked.
  def masters
    @masters.map(&:name)
  end

  def inspect
    "#<OsctlLock ttl=#{@ttl}s quorum=#{@quorum}/#{@masters.size} masters=#{masters.inspect}>"
  end
  alias to_s inspect

  # Takes the lock on key (retrying as configured; retry_count and retry_delay override the
  # lock's for this call, for a background job that may wait longer than a request), runs the
  # block with the Lease, and releases the lock on every master when the block ends, normally or
  # by an exception. Returns the block's value. Raises NotAcquired when every try failed; Lost in
  # the block as soon as the lock is lost, and from synchronize when the block returned but the
  # lock had been lost first.
  def synchronize(key, retry_count: @retry_count, retry_delay: @retry_delay)
    raise ArgumentError, 'OsctlLock#synchronize needs a block' unless block_given?

    key = key.to_s
    raise ArgumentError, 'OsctlLock#synchronize: the lock key is empty' if key.empty?

    check_retries(retry_count, retry_delay)

    # Lost is held back everywhere but in the block itself, so that it can never land in the
    # middle of taking or releasing the lock.
    Thread.handle_interrupt(Lost => :never) do
      lease = nil
      result = nil
      begin
        lease = acquire(key, retry_count, retry_delay.to_f)
        lease.__send__(:start_keeper, Thread.current)
        result = Thread.handle_interrupt(Lost => :immediate) { yield lease }
      ensure
        if lease
          # The release is bounded in time: nothing (a Timeout either) may cut it short.
          Thread.handle_interrupt(Object => :never) { lease.__send__(:finish) }
          debug("released #{key} (#{lease.value})")
          take_pending_loss(lease)
        end
      end
      raise lease.lost_error if lease.lost?

      result
    end
  end

  # One held lock, yielded by synchronize.
  class Lease
    # The lock key, the holder value written on the masters, and the fencing token: larger than
    # the token of every earlier acquisition of this key, by Ruby or by pkg/lock.
    attr_reader :key, :value, :token

    def initialize(locker, key, value, token, validity)
      @locker = locker
      @key = key
      @value = value
      @token = token
      @validity = validity
      @mu = Mutex.new
      @cv = ConditionVariable.new
      @lost = false
      @released = false
      @deliver = false
      @owner = nil
      @error = nil
      @reason = nil
    end

    # Whether the lock was lost (a renewal failed, or the validity ran out) before it was released.
    def lost?
      @mu.synchronize do
        lose_locked('the validity ran out before a renewal succeeded', notify: false) if !@released && OsctlLock.now >= @validity
        @lost
      end
    end

    # Raises Lost if the lock is lost. Call it before each write that must not happen without the
    # lock (SharedFiles calls it right before its rename).
    def check!
      raise lost_error if lost?
    end

    # Why the lock was lost, or nil.
    def reason
      @mu.synchronize { @reason }
    end

    # Seconds for which the lock is still known held (renewals move it forward); 0 once lost.
    def remaining
      @mu.synchronize { @lost ? 0.0 : [@validity - OsctlLock.now, 0.0].max }
    end

    # The Lost exception of this lease (a new one if it was not lost).
    def lost_error
      @mu.synchronize { @error || Lost.new("lock #{@key} lost", key: @key, lease: self) }
    end

    def inspect
      "#<OsctlLock::Lease key=#{@key} value=#{@value} token=#{@token}#{@lost ? ' LOST' : ''}>"
    end

    private

    def start_keeper(owner)
      @mu.synchronize do
        @owner = owner
        @deliver = true
      end
      @keeper = Thread.new { keep }
      @keeper.name = "osctl-lock #{@key}" if @keeper.respond_to?(:name=)
    end

    # The renewal loop: every TTL/3 (after the previous renewal ended) one extension, bounded by
    # the current validity; a loss ends it. It never outlives the lease.
    def keep
      next_at = OsctlLock.now + @locker.renew_every
      loop do
        @mu.synchronize do
          loop do
            return if @released || @lost

            t = OsctlLock.now
            if t >= @validity
              lose_locked('the validity ran out before a renewal succeeded')
              return
            end
            break if t >= next_at

            @cv.wait(@mu, [next_at, @validity].min - t)
          end
        end
        ok, result = @locker.__send__(:extend_lease, self, @mu.synchronize { @validity })
        @mu.synchronize do
          return if @released || @lost

          if ok
            @validity = result
            next_at = OsctlLock.now + @locker.renew_every
          else
            result = "the validity ran out before a renewal succeeded (#{result})" if OsctlLock.now >= @validity
            lose_locked(result)
            return
          end
        end
      end
    rescue Exception => e # rubocop:disable Lint/RescueException -- a keeper that dies must not leave the work running
      @mu.synchronize { lose_locked("renewal failed: #{e.class}: #{e.message}") }
    end

    # Marks the lease lost and, while the block runs, raises Lost in its thread. Called with @mu held.
    def lose_locked(reason, notify: true)
      return if @lost || @released

      @lost = true
      @reason = reason
      @error = Lost.new("lock #{@key} lost: #{reason}; the work under it was stopped", key: @key, lease: self)
      @cv.broadcast
      @locker.__send__(:warn, "LOST LOCK #{@key} (token #{@token}): #{reason}")
      @owner.raise(@error) if notify && @deliver && @owner && @owner != Thread.current && @owner.alive?
    end

    # Ends the lease: no more renewals or raises, then compare-and-delete on every master.
    def finish
      @mu.synchronize do
        lose_locked('the validity ran out before a renewal succeeded', notify: false) if !@released && OsctlLock.now >= @validity
        @deliver = false
        @released = true
        @cv.broadcast
      end
      deleted, gone, errors = @locker.__send__(:release, @key, @value)
      n = @locker.__send__(:size)
      q = @locker.quorum
      return if deleted >= q

      @mu.synchronize do
        if gone > n - q && !@lost
          @lost = true
          @reason = "#{@key} was no longer held on a quorum at release (deleted on #{deleted} of #{n} masters)"
          @error = Lost.new("lock #{@key} lost: #{@reason}; the work under it may have overlapped another holder's", key: @key, lease: self)
          @locker.__send__(:warn, "LOST LOCK #{@key} (token #{@token}): #{@reason}")
        end
      end
      return if gone > n - q

      @locker.__send__(:warn, "releasing #{@key}: deleted on #{deleted} of #{n} masters (#{errors}); " \
                              "the rest expires by its TTL within #{@locker.ttl} s")
    end
  end

  # Files on the shared volume, written the way docs/migration/rails-lock-contract.md section 6
  # asks: whole or not at all, never renamed into place after the lock was lost, and refused when
  # a holder with a newer fencing token already wrote. The last accepted token is kept in a fence
  # file (FENCE_FILE, one integer) beside the data, as osctl's sandbox does.
  module SharedFiles
    FENCE_FILE = '.osctl-fence'
    TEMP_PREFIX = '.osctl-tmp-'

    module_function

    # The token recorded in fence_file, 0 when there is none. It opens and reads the file (which
    # revalidates on NFS), never trusting cached attributes.
    def recorded_token(fence_file)
      text = File.read(fence_file)
      Integer(text.strip, 10)
    rescue Errno::ENOENT
      0
    rescue ArgumentError
      raise OsctlLock::Error, "fence record #{fence_file} is corrupt (#{text.strip[0, 40].inspect}): " \
                              'remove it only after checking which holder wrote last'
    end

    # Raises Fenced when fence_file records a token above the lease's.
    def check_fence!(fence_file, lease, what)
      rec = recorded_token(fence_file)
      return if rec <= lease.token

      raise OsctlLock::Fenced, "refused #{what} with fencing token #{lease.token}: token #{rec} already wrote " \
                               '(this holder lost its lock and another took it)'
    end

    # Records token in fence_file (atomically) unless a higher one is there already.
    def record_fence(fence_file, token)
      return if recorded_token(fence_file) >= token

      tmp = temp_path(File.dirname(fence_file))
      begin
        File.open(tmp, File::WRONLY | File::CREAT | File::EXCL, 0o666) do |f|
          f.write("#{token}\n")
          f.fsync
        end
        File.rename(tmp, fence_file)
        tmp = nil
      ensure
        FileUtils.rm_f(tmp) if tmp
      end
    end

    # Writes path whole or not at all under lease: the block writes into a new temp file in the
    # same directory (an IO); it is synced, then, only if the lock is still held and no newer token
    # wrote (fence_file), the token is recorded and the file renamed over path. Readers see the old
    # file or the new one, never a torn one. Any exception (Lost too) removes the temp file and
    # leaves path as it was. Returns path.
    def write_file(path, lease, fence_file:)
      dir = File.dirname(path)
      FileUtils.mkdir_p(dir)
      tmp = temp_path(dir)
      begin
        # 0666 less the umask, as Paperclip leaves a stored file (and upstream runs with umask 0000).
        File.open(tmp, File::WRONLY | File::CREAT | File::EXCL | File::BINARY, 0o666) do |f|
          yield f
          f.flush
          f.fsync
        end
        commit(lease, fence_file, "the write of #{path}") { File.rename(tmp, path) }
        tmp = nil
        sync_dir(dir)
      ensure
        Thread.handle_interrupt(OsctlLock::Lost => :never) { FileUtils.rm_f(tmp) } if tmp
      end
      path
    end

    # Replaces the directory dir whole under lease: the block fills a new temp directory beside
    # it (its path is yielded); the lease's token is recorded in it, and, only if the lock is still
    # held and no newer token wrote (fence_file, and the fence file of the directory in place), it
    # is swapped in: the old directory is renamed aside, the new one renamed to dir, the old one
    # removed. Never merges into what is there. Any exception before the swap removes the temp
    # directory and leaves dir as it was. Returns dir.
    def replace_dir(dir, lease, fence_file:)
      parent = File.dirname(dir)
      FileUtils.mkdir_p(parent)
      tmp = File.join(parent, "#{TEMP_PREFIX}#{File.basename(dir)}-#{SecureRandom.hex(6)}")
      old = nil
      Dir.mkdir(tmp) # 0777 less the umask, as upstream's mkdir_p of the extraction gives it
      begin
        yield tmp
        File.write(File.join(tmp, FENCE_FILE), "#{lease.token}\n")
        commit(lease, fence_file, "the replacement of #{dir}") do
          check_fence!(File.join(dir, FENCE_FILE), lease, "the replacement of #{dir}")
          old = swap_in(tmp, dir)
        end
        tmp = nil
        sync_dir(parent)
      ensure
        Thread.handle_interrupt(OsctlLock::Lost => :never) do
          FileUtils.rm_rf(tmp) if tmp
          FileUtils.rm_rf(old) if old
        end
      end
      dir
    end

    # The last step of a write, with Lost held back so that it happens whole or not at all: the
    # lease is checked, the fence compared and raised, then the rename (the block) is done.
    def commit(lease, fence_file, what)
      Thread.handle_interrupt(OsctlLock::Lost => :never) do
        lease.check!
        check_fence!(fence_file, lease, what)
        FileUtils.mkdir_p(File.dirname(fence_file))
        record_fence(fence_file, lease.token)
        yield
      end
    end

    # Renames dir aside (if it exists) and tmp to dir; returns the aside path or nil.
    def swap_in(tmp, dir)
      old = "#{tmp}.old"
      begin
        File.rename(dir, old)
      rescue Errno::ENOENT
        old = nil
      end
      begin
        File.rename(tmp, dir)
      rescue SystemCallError
        File.rename(old, dir) if old # put the old one back
        raise
      end
      old
    end

    def temp_path(dir)
      File.join(dir, "#{TEMP_PREFIX}#{SecureRandom.hex(8)}")
    end

    def sync_dir(dir)
      File.open(dir, File::RDONLY, &:fsync)
    rescue SystemCallError, IOError
      nil # not every file system syncs a directory; the rename is done either way
    end
  end

  # One master: a small pool of clients, so that threads do not queue behind one another's calls
  # and a hung master ties up at most POOL_SIZE connections. Reset after a fork.
  class Master
    attr_reader :name

    def initialize(url, name, io_timeout)
      @url = url
      @name = name
      @io_timeout = io_timeout
      @mu = Mutex.new
      @cv = ConditionVariable.new
      @idle = []
      @made = 0
      @pid = Process.pid
    end

    # Yields a client, waiting for a free one until deadline.
    def with(deadline)
      client = checkout(deadline)
      begin
        yield client
      ensure
        checkin(client)
      end
    end

    private

    def checkout(deadline)
      @mu.synchronize do
        forked!
        loop do
          return @idle.pop unless @idle.empty?

          if @made < POOL_SIZE
            @made += 1
            return new_client
          end
          left = deadline - OsctlLock.now
          raise NoAnswer, "all #{POOL_SIZE} connections are still waiting for earlier answers" if left <= 0

          @cv.wait(@mu, left)
        end
      end
    end

    def checkin(client)
      @mu.synchronize do
        next if forked!

        @idle.push(client)
        @cv.signal
      end
    end

    # After a fork the parent's connections are not ours: forget them (never close them).
    def forked!
      return false if @pid == Process.pid

      @pid = Process.pid
      @idle = []
      @made = 0
      true
    end

    # Both redis gem 4.x and 5.x take these options. No reconnect attempts: a failed command is
    # that master's answer for this round; the next command connects again.
    def new_client
      Redis.new(url: @url, connect_timeout: @io_timeout, read_timeout: @io_timeout,
                write_timeout: @io_timeout, reconnect_attempts: 0)
    end
  end

  # Internals used by Lease.
  attr_reader :renew_every

  private

  def size
    @masters.size
  end

  def warn(message)
    @logger&.warn("osctl_lock: #{message}")
  end

  # Acquisitions and releases, at debug level: `grep osctl_lock log/*.log` shows who held what.
  def debug(message)
    @logger&.debug("osctl_lock: #{message}")
  end

  def io_timeout_for(ttl)
    [ttl.to_f / 5, 0.5].max
  end

  def check_retries(retry_count, retry_delay)
    unless retry_count.is_a?(Integer) && retry_count >= 1
      raise ArgumentError, "OsctlLock: retry_count #{retry_count.inspect} must be an integer of at least 1"
    end
    return if retry_delay.is_a?(Numeric) && retry_delay >= 0

    raise ArgumentError, "OsctlLock: retry_delay #{retry_delay.inspect} must be a number of seconds, at least 0"
  end

  def check_url(url)
    u = URI.parse(url)
    return if %w[redis rediss unix].include?(u.scheme) && (u.scheme == 'unix' || !u.host.to_s.empty?)

    raise ArgumentError, "OsctlLock.new: #{OsctlLock.mask(url, @secrets)} is not a Redis URL: use redis://[:password@]host:port[/db] or rediss://"
  rescue URI::InvalidURIError
    raise ArgumentError, "OsctlLock.new: #{OsctlLock.mask(url, @secrets)} is not a Redis URL: use redis://[:password@]host:port[/db] or rediss://"
  end

  def url_secrets(url)
    m = %r{\A\w+://[^:/@\s]*:([^@\s]*)@}.match(url)
    return [] unless m

    raw = m[1]
    [raw, URI::DEFAULT_PARSER.unescape(raw)].uniq
  rescue StandardError
    []
  end

  # Redlock acquisition, as pkg/lock (redsync underneath): per try, SET NX PX on every master in
  # parallel, waiting for them up to 5% of the TTL; held when a quorum said OK and the validity
  # start + ttl - drift has not passed; otherwise undone on every master by compare-and-delete.
  # The fencing counter is read from a quorum alongside the first try and the token written once
  # the lock is held. Returns a Lease (its keeper not started yet).
  def acquire(key, retry_count, retry_delay)
    value = OsctlLock.holder_value(@pod, @namespace)
    fence_read = Thread.new { read_fence(key) }
    unreachable = 0
    last = nil
    dirty = false
    done = false
    begin
      retry_count.times do |try|
        sleep(jitter(retry_delay)) if try.positive?
        start = OsctlLock.now
        dirty = true
        replies = round(start + @op_timeout) { |c| c.set(key, value, nx: true, px: @ttl_ms) }
        validity = start + @ttl - @drift
        ok = replies.count { |r| r.error.nil? && r.value == true }
        if ok >= @quorum && OsctlLock.now < validity
          token = take_token(key, fence_read.value)
          unless OsctlLock.now < validity
            raise NotAcquired, "#{key}: the lock's validity ran out while taking the fencing token"
          end
          done = true
          debug("acquired #{key} as #{value}, fencing token #{token}, on #{ok} of #{@masters.size} masters " \
                "after #{try + 1} #{try.zero? ? 'try' : 'tries'}; valid #{((validity - OsctlLock.now) * 1000).round} ms")
          return Lease.new(self, key, value, token, validity)
        end
        release(key, value, @op_timeout)
        dirty = false
        failed = replies.count(&:error)
        last = describe(replies, ok)
        if failed > @masters.size - @quorum
          unreachable += 1
          if unreachable >= UNREACHABLE_TRIES
            raise NotAcquired, "#{key}: not acquired: fewer than #{@quorum} of #{@masters.size} masters answered " \
                               "on #{unreachable} tries in a row (#{last})"
          end
        else
          unreachable = 0
        end
      end
      raise NotAcquired, "#{key}: not acquired in #{retry_count} tries (#{last})"
    ensure
      # Failed or cut short (fencing failed, a Timeout): remove what a try may have set.
      Thread.handle_interrupt(Object => :never) { release(key, value) } if dirty && !done
    end
  end

  # The token for a held lock (pkg/lock's fence): the largest counter of a quorum plus one,
  # written with set-if-greater until a quorum holds exactly it; NotAcquired when it cannot be
  # (acquire then undoes the lock).
  def take_token(key, read)
    read = read_fence(key) if read[1]
    raise NotAcquired, "#{key}: #{read[1]}" if read[1]

    fk = OsctlLock.fence_key(key)
    want = read[0] + 1
    last = nil
    FENCE_WRITE_TRIES.times do
      cand = want
      good = ->(r) { r && r.error.nil? && r.value.is_a?(Array) && r.value[0] == 1 && r.value[1] == cand }
      replies = round(OsctlLock.now + @op_timeout, decided_by(good)) { |c| run_script(c, SET_IF_GREATER, fk, cand.to_s) }
      raised = replies.count(&good)
      return cand if raised >= @quorum

      replies.each { |r| want = [want, r.value[1].to_i].max if r.error.nil? && r.value.is_a?(Array) }
      last = "fencing: raising #{fk} to #{cand} reached #{raised} of #{@masters.size} masters, need #{@quorum}#{errors_of(replies, ': ')}"
      want += 1
    end
    raise NotAcquired, "#{key}: #{last}"
  end

  # [highest counter among a quorum, nil] or [0, why not].
  def read_fence(key)
    fk = OsctlLock.fence_key(key)
    replies = round(OsctlLock.now + @op_timeout, decided_by(->(r) { r && r.error.nil? })) do |c|
      v = c.get(fk)
      v.nil? ? 0 : Integer(v, 10)
    end
    ok = replies.select { |r| r.error.nil? }
    return [ok.map(&:value).max, nil] if ok.size >= @quorum

    [0, "fencing: read of #{fk} reached #{ok.size} of #{@masters.size} masters, need #{@quorum}#{errors_of(replies, ': ')}"]
  rescue StandardError => e
    [0, "fencing: read of #{fk}: #{mask(e.message)}"]
  end

  # One renewal (redsync's extend, fail-fast, as pkg/lock): the touch script on every master,
  # decided when a quorum extended or a quorum answered that the value is gone; bounded by the
  # current validity. Returns [true, new validity] or [false, why].
  def extend_lease(lease, validity)
    start = OsctlLock.now
    extended = ->(r) { r && r.error.nil? && r.value == 1 }
    taken = ->(r) { r && r.error.nil? && r.value != 1 }
    decided = ->(rs) { rs.count(&extended) >= @quorum || rs.count(&taken) >= @quorum }
    replies = round(validity, decided) { |c| run_script(c, TOUCH, lease.key, lease.value, @ttl_ms.to_s) }
    ok = replies.count(&extended)
    if ok >= @quorum
      until_t = start + @ttl - @drift
      return [true, until_t] if OsctlLock.now < until_t

      return [false, 'a renewal reached a quorum only after the validity ran out']
    end
    gone = replies.each_index.select { |i| taken.call(replies[i]) }
    why = "renewal reached #{ok} of #{@masters.size} masters, need #{@quorum}"
    why += ": the value is gone or replaced on masters #{gone.inspect}" unless gone.empty?
    [false, why + errors_of(replies, '; ')]
  rescue StandardError => e
    [false, "renewal failed: #{mask(e.message)}"]
  end

  # Compare-and-delete on every master, also those that did not answer the acquisition; returns
  # once every master answered, or at the timeout. It does not return at a quorum: a process
  # that exits right after the block (a Resque job's fork does) would cut the minority's deletes
  # short and leave debris there until the TTL. Returns [deleted, gone (another value or none),
  # errors].
  def release(key, value, timeout = @release_timeout)
    deleted = ->(r) { r && r.error.nil? && r.value == 1 }
    replies = round(OsctlLock.now + timeout) { |c| run_script(c, DEL_IF_VALUE, key, value) }
    [replies.count(&deleted), replies.count { |r| r.error.nil? && r.value != 1 }, errors_of(replies, '')]
  end

  # A round is decided when q replies are good or so many are in and bad that q cannot be reached
  # (pkg/lock's decidedBy).
  def decided_by(good)
    lambda do |rs|
      g = rs.count(&good)
      bad = rs.count { |r| r && !good.call(r) }
      g >= @quorum || bad > rs.size - @quorum
    end
  end

  # Runs the block against every master in parallel, one thread each, and returns their replies
  # in master order once decided (if given) says so, all answered, or deadline (monotonic
  # seconds) passed. Masters that had not answered carry NoAnswer; their calls go on in the
  # background (a release still reaches them) and end within the client's I/O timeout.
  def round(deadline, decided = nil)
    n = @masters.size
    replies = Array.new(n)
    mu = Mutex.new
    cv = ConditionVariable.new
    pending = n
    @masters.each_with_index do |m, i|
      Thread.new do
        r = begin
          Reply.new(m.with(deadline) { |c| yield c }, nil)
        rescue StandardError => e
          Reply.new(nil, e)
        end
        mu.synchronize do
          replies[i] = r
          pending -= 1
          cv.broadcast
        end
      end
    end
    mu.synchronize do
      until pending.zero? || (decided && decided.call(replies))
        left = deadline - OsctlLock.now
        break if left <= 0

        cv.wait(mu, left)
      end
      replies.map { |r| r || Reply.new(nil, NoAnswer.new('no answer in time')) }
    end
  end

  # EVALSHA, and EVAL when the master does not have the script yet (both gems, same signature).
  def run_script(client, script, key, *argv)
    client.evalsha(SHAS.fetch(script), keys: [key], argv: argv)
  rescue Redis::CommandError => e
    raise unless e.message.start_with?('NOSCRIPT')

    client.eval(script, keys: [key], argv: argv)
  end

  def describe(replies, ok)
    taken = replies.count { |r| r.error.nil? && r.value != true }
    parts = ["#{ok} of #{@masters.size} masters said OK, need #{@quorum}"]
    parts << "#{taken} held by another holder" if taken.positive?
    parts.join(', ') + errors_of(replies, '; ')
  end

  def errors_of(replies, sep)
    errs = replies.each_with_index.select { |r, _| r.error }.map do |r, i|
      "#{@masters[i].name}: #{mask(r.error.message)}"
    end
    errs.empty? ? '' : sep + errs.join('; ')
  end

  def mask(text)
    OsctlLock.mask(text, @secrets)
  end

  def jitter(delay)
    return 0.0 if delay <= 0

    delay / 2 + rand * delay
  end

  # Lost exceptions that reached this thread after the block ended (the keeper decided just as
  # it returned) are taken here: this lease's are answered by synchronize itself; another lease's
  # (an enclosing synchronize) go on.
  def take_pending_loss(lease)
    other = nil
    10.times do
      break unless Thread.pending_interrupt?(Lost)

      begin
        Thread.handle_interrupt(Lost => :immediate) { Thread.pass }
      rescue Lost => e
        other ||= e unless e.lease.equal?(lease)
      end
    end
    raise other if other
  end
end
