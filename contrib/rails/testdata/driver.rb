# frozen_string_literal: true

# The Ruby side of the Go tests in contrib/rails: each command drives osctl_lock.rb against the
# real redis-server processes the test started and prints one JSON object per line on stdout.
# Times are CLOCK_MONOTONIC nanoseconds, which the Go side reads from the same clock.
#
#   ruby driver.rb contend   # OSCTL_URLS, STATE_URL, KEY, ROUNDS, THREADS: contend for KEY
#   ruby driver.rb hold      # OSCTL_URLS, KEY, TTL, [TICKS_FILE]: hold KEY until stdin closes
#   ruby driver.rb unreachable # OSCTL_URLS: time synchronize against masters that do not answer
#   ruby driver.rb badargs   # what new raises for each invalid argument
#   ruby driver.rb shas      # the SHA1s of the module's Lua scripts

require 'json'
require_relative '../osctl_lock'

$stdout.sync = true
OUT = Mutex.new

def emit(obj)
  OUT.synchronize { $stdout.puts(JSON.generate(obj)) }
end

def mono_ns
  Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
end

def urls
  ENV.fetch('OSCTL_URLS').split(',')
end

# Each of THREADS threads takes KEY ROUNDS times; in the section it marks itself inside (a SET NX
# on the state Redis, which fails if another holder is inside), reads the shared counter, waits a
# little and writes it back plus one: an overlap or a lost update shows.
def contend
  require 'redis'
  rounds = Integer(ENV.fetch('ROUNDS'))
  threads = Integer(ENV.fetch('THREADS'))
  key = ENV.fetch('KEY')
  locks = Array.new(threads) { OsctlLock.new(urls: urls, ttl: 5, retry_count: 2000, retry_delay: 0.01) }
  states = Array.new(threads) { Redis.new(url: ENV.fetch('STATE_URL')) }
  states.each(&:ping)
  emit(event: 'ready')
  $stdin.gets
  workers = Array.new(threads) do |t|
    Thread.new do
      who = "ruby-#{t}"
      rounds.times do
        begin
          locks[t].synchronize(key) do |lease|
            enter = mono_ns
            alone = states[t].set('inside', who, nx: true)
            v = states[t].get('counter').to_i
            sleep(rand * 0.004)
            states[t].set('counter', v + 1)
            states[t].del('inside') if alone
            emit(lang: 'ruby', who: who, token: lease.token, enter: enter, exit: mono_ns, alone: alone)
          end
        rescue OsctlLock::NotAcquired => e
          emit(lang: 'ruby', who: who, error: e.message)
        end
        sleep(0.002 + rand * 0.008) # let the others in
      end
    end
  end
  workers.each(&:join)
  emit(event: 'done')
end

# Holds KEY until stdin is closed, writing a tick line to TICKS_FILE every 50 ms without ever
# checking the lease (and swallowing every StandardError, as careless code does): only the Lost
# raised into this thread can stop it.
def hold
  key = ENV.fetch('KEY')
  lock = OsctlLock.new(urls: urls, ttl: Integer(ENV.fetch('TTL', '5')))
  stop = false
  Thread.new do
    $stdin.read
    stop = true
  end
  ticks = 0
  begin
    lock.synchronize(key) do |lease|
      emit(event: 'held', value: lease.value, token: lease.token, at: mono_ns)
      file = ENV['TICKS_FILE'] && File.open(ENV['TICKS_FILE'], 'a')
      until stop
        begin
          ticks += 1
          if file
            file.puts("tick #{ticks} #{mono_ns}")
            file.flush
          end
          sleep 0.05
        rescue StandardError => e
          emit(event: 'swallowed', error: e.message)
        end
      end
      file&.close
    end
    emit(event: 'released', ticks: ticks, at: mono_ns)
  rescue OsctlLock::Lost => e
    emit(event: 'lost', message: e.message, ticks: ticks, at: mono_ns, lost: e.lease.lost?)
  end
end

# synchronize against OSCTL_URLS, whose masters do not answer: how it fails and how long it takes.
def unreachable
  lock = OsctlLock.new(urls: urls, ttl: 5)
  start = mono_ns
  begin
    lock.synchronize('redlock:unreachable:analysis_zip') { emit(event: 'held') }
  rescue StandardError => e
    emit(event: 'failed', class: e.class.name, message: e.message, seconds: (mono_ns - start) / 1e9,
         inspect: lock.inspect)
  end
end

# Each invalid argument to new, and what it raised.
def badargs
  good = ['redis://127.0.0.1:6379']
  cases = {
    'no urls' => -> { OsctlLock.new(urls: []) },
    'nil urls' => -> { OsctlLock.new(urls: nil) },
    'ttl 4' => -> { OsctlLock.new(urls: good, ttl: 4) },
    'ttl 4.99' => -> { OsctlLock.new(urls: good, ttl: 4.99) },
    'ttl 31' => -> { OsctlLock.new(urls: good, ttl: 31) },
    'ttl "10"' => -> { OsctlLock.new(urls: good, ttl: '10') },
    'retry_count 0' => -> { OsctlLock.new(urls: good, retry_count: 0) },
    'not a url' => -> { OsctlLock.new(urls: ['http://:pw-in-url@example.com']) },
    'same master twice' => -> { OsctlLock.new(urls: good + good) },
    'ttl 5' => -> { OsctlLock.new(urls: good, ttl: 5) },
    'ttl 30' => -> { OsctlLock.new(urls: good, ttl: 30) }
  }
  cases.each do |name, f|
    f.call
    emit(case: name, raised: nil)
  rescue StandardError => e
    emit(case: name, raised: e.class.name, message: e.message)
  end
end

def shas
  require 'digest/sha1'
  emit(del_if_value: Digest::SHA1.hexdigest(OsctlLock::DEL_IF_VALUE),
       set_if_greater: Digest::SHA1.hexdigest(OsctlLock::SET_IF_GREATER),
       touch: Digest::SHA1.hexdigest(OsctlLock::TOUCH))
end

case ARGV[0]
when 'contend' then contend
when 'hold' then hold
when 'unreachable' then unreachable
when 'shas' then shas
when 'badargs' then badargs
else
  warn "usage: ruby driver.rb contend|hold|unreachable|shas (got #{ARGV[0].inspect})"
  exit 2
end
