"""Every series Kadesh records for an operator's Prometheus, defined in one place (docs/operations.md « Metrics »).

Here, in the store's layer, the lowest that records any (the database's pool and writer, the workers' jobs): the
server's modules import them from here too. Which process serves them and how is ``kadesh.server.metrics``'s,
as is the one series read at each scrape rather than recorded (``kadesh_jobs_waiting``, the workers' queue).

With ``kadesh serve --metrics-port``, the server and its children (workers, check process, simulations) write
their values to files of a directory made for the run (``PROMETHEUS_MULTIPROC_DIR``, set before this module is
first imported: the client library chooses its storage then), and a scrape adds them up. Without it, each
process counts in its own memory and nobody reads it: the cost is a few hundred nanoseconds per value.

Labels stay few and fixed (a route's template, a ruleset, a bot's level, a job's kind, a problem's code): never
a game, a seat, an account or an address.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Seconds. Requests and pushes: a few milliseconds to seconds; waits for a connection or a writer: from tenths
# of a millisecond; bots and jobs: up to the minutes a busy queue may hold a computer-only game's job.
FAST = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
REQUEST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)

HTTP_REQUESTS = Histogram(
    "kadesh_http_request_duration_seconds",
    "HTTP requests by route template, method and status class, from the request's arrival at the server's "
    "middleware to the end of its answer.",
    ["route", "method", "status"], buckets=REQUEST)
ACTION_COMMIT = Histogram(
    "kadesh_action_commit_seconds",
    "Players' actions (POST /api/games/{game_id}/actions): from the request reaching its handler to the commit "
    "that holds the action.", ["ruleset"], buckets=REQUEST)
ACTION_ANSWER = Histogram(
    "kadesh_action_answer_seconds",
    "Players' actions: from the request reaching its handler to its answer being ready (after the commit).",
    ["ruleset"], buckets=REQUEST)
PUSH_FIRST = Histogram(
    "kadesh_push_first_socket_seconds",
    "A new version pushed to watching sockets: from its announcement to the first socket written. The "
    "announcement is the commit for this server's own actions; for another server's or a worker's, the moment "
    "this server heard of it (PostgreSQL's NOTIFY, or SQLite's look every 0.1 s).", buckets=REQUEST)
PUSH_LAST = Histogram(
    "kadesh_push_last_socket_seconds",
    "A new version pushed to watching sockets: from its announcement (as for kadesh_push_first_socket_seconds) "
    "to the last of the sockets it was queued for written.", buckets=REQUEST)
SOCKETS_OPEN = Gauge("kadesh_sockets_open", "WebSockets open on the game pages, across this server's processes.",
                     multiprocess_mode="livesum")
JOB_WAIT = Histogram(
    "kadesh_job_wait_seconds",
    "Workers' jobs by kind: from the moment a job was due to its claim by a worker (the bots' jobs of games where "
    "a person waits: a computer-only game's waits for someone to watch it).", ["kind"], buckets=SLOW)
BOT_THINKING = Histogram(
    "kadesh_bot_thinking_seconds",
    "Computer opponents' time to choose one action, by ruleset and bot (its level's name).",
    ["ruleset", "bot"], buckets=SLOW)
REFUSALS = Counter(
    "kadesh_refusals_total",
    "Requests and sockets refused for their rate or size, by problem code (rate_limited, too_large, "
    "too_many_messages, message_too_large, too_many_sockets) and, for rate_limited, the limit's kind.",
    ["code", "limit"])
NOTICES = Counter(
    "kadesh_notices_total", "Notices sent by the workers, by channel (email, webhook) and outcome (sent, failed).",
    ["channel", "outcome"])
POOL_WAIT = Histogram(
    "kadesh_db_pool_wait_seconds",
    "Time to take a database connection from a process's pool (opening a new one included).", buckets=FAST)
WRITER_WAIT = Histogram(
    "kadesh_db_writer_wait_seconds",
    "Players' actions waiting in the store's writer queue before their group's transaction begins (SQLite's "
    "single writer, PostgreSQL's few).", buckets=FAST)
