"""Load benchmark of live play: ``python -m bench.load`` (``make bench`` runs it after the engine
benchmark). It starts the site the way docs/deploy.md runs it, through
``scripts/serve.py`` (one Daphne per core on one socket, a Celery worker, Celery beat), in
production mode (``config.settings.bench``: the production settings over plain HTTP, plus two
echo sockets) on PostgreSQL and Redis, plays Japanese Joker against it over real websockets with
clients written from ``docs/protocol.md``, stops everything itself, prints a summary and writes
``bench/results/latest.json``.

The phases, in the order they run:

1. **Echo baselines**: round trips on a bare echo socket of the same Daphne, then the same echo
   through one ``group_send`` on the channel layer: the ceiling a table socket is compared with.
2. **Human pace (open loop)**: every table moves once every ``--period`` seconds (3) on a fixed
   schedule, latency counted from the scheduled time to the moment the table's last seat holds
   the new ``state``; tables stepped up (100, 250, 500, 1,000, 2,000) until the p99 passes
   100 ms. The largest passing step is the capacity. 2,000 sockets must connect without a
   refusal or a dropped handshake; server RSS per live table (at most 60 KB) is measured here.
3. **Closed loop**: N tables (10, 50, 200), each seat playing a random entry of its
   ``view.legal`` as soon as its ``state`` says it is to act, rematching when a match ends. The
   web processes' CPU a move at the cheapest step must be at most 6 times their CPU an echo
   round trip (issue 32 § 1); moves/s over the echo's round trips/s is reported, not judged.
   Then the same loop at ``--sync-spam-tables`` (50) whose clients ``sync`` whenever an ``ack``
   comes before its ``state`` (issue 32 § 6): at most 1.5 times the web CPU a move.
4. **Slow readers** (issue 25): tables at human pace (``--slow-tables``, 100), measured alone,
   then again while ``--slow-readers`` (10) more sockets watch them that send ``sync`` eight
   times a second (under the rate limit) and never read. The other tables' p99 must stay
   within twice what it was alone; the non-readers are closed by the server (4013 past
   ``LIVE_SEND_BUFFER_BYTES``, or unanswered pings) and the web processes' RSS growth is shown.
5. **Idle tables** (issue 32 § 5, ``bench/load/idle.py``): ``--idle-beside`` (500) tables at
   human pace beside ``--idle-tables`` (350) nobody plays at; their p99 stays within 100 ms.
6. **Connection storm** (issue 32 § 3, ``bench/load/storm.py``): ``--storm-tables`` (1,000)
   at human pace while ``--storm-sockets`` (2,000) new table sockets connect over
   ``--storm-seconds`` (30); their p99 during the storm at most 250 ms.
7. **Two nodes** (issue 32 § 7, ``bench/load/nodes.py``, ``--nodes 1`` to skip): a second
   ``serve.py --web-only`` on its own port; ``--node-tables`` (500) tables on one node, then as
   many with each table's seats on different nodes; p99 within 1.5 times the one-node p99.
8. **Quick play** (issue 28 § 2): ``--pool-players`` (1,000) registered players, each with a
   lobby socket, send one ``pool_join`` (one or two of ``--pools``) at random moments of
   ``--pool-window`` (60 s); a player told ``paired`` opens the table, and when both have the
   match starts (then seat 0 leaves: aborted, stakes refunded). Pairs made per second,
   ``pool_join`` → the first ``playing`` state and ``paired`` → that state (p50/p99; its p99
   must be at most 1 s), beside the group echo of the same run.
9. **Arena** (issue 29): ``--arena-players`` (500) registered players enter one Japanese Joker
   arena (Fast, to 11) of ``--arena-minutes`` (2) that the server's beat starts, pairs and
   ends; each holds the tournament's socket and plays every match it is sent to at once. The
   time from a match's end to the player's next ``match_started`` (p50/p99; its p99 must be at
   most 2 s), the matches played, and the standings frames a second (new versions, and frames
   received over all sockets).
10. **After the run**: every match ended (the clients leave their tables: a forfeit), the coin
   ledger audited (``manage.py audit_coins``), every frame every client received checked
   against the match replayed from its seed (no card its seat could not see at that version),
   and the server log free of tracebacks and errors.

Sessions are made directly in the database (users and guests with their session rows), not
through the login forms, and after each batch of tables the bench runs ``ANALYZE``, as autovacuum
would on a production server (this machine's PostgreSQL runs with autovacuum off). The bench's
clients play far faster than a person, so the server's per-socket rate limit is raised for it
(``LIVE_RATE_PER_SECOND``); nothing else differs from a production server. Floors are printed
PASS/FAIL; the exit status is non-zero only when the harness or the server broke.
"""
