#!/usr/bin/env python3
"""tests/pyroscope_stub.py DIR: a loopback HTTP server standing in for
Grafana Pyroscope's ingest API in t7632. It listens on 127.0.0.1, a free
port, written to DIR/port, and records each request as DIR/N.json
(method, path, raw query, headers, HTTP version) and DIR/N.body. The
answer depends on the path's first segment:
  /ok/...    200, empty body (what Pyroscope answers on success)
  /bad/...   400 "invalid name: unexpected character\\n..."
  /fail/...  500 "ingest failed: disk full\\nsecond line\\n"
  /slow/...  sleeps 5 s, then 200
It exits when DIR/stop exists (checked every 0.2 s) or after 120 s.
"""
import http.server
import json
import os
import sys
import threading
import time

DIR = sys.argv[1]
count = [0]
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *args):
        pass

    def answer(self, code, text):
        body = text.encode()
        self.send_response(code)
        self.send_header('Content-Type', 'text/plain; charset=utf-8')
        self.send_header('Content-Length', str(len(body)))
        self.send_header('Connection', 'close')
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        n = int(self.headers.get('Content-Length', '0'))
        body = self.rfile.read(n)
        path, _, query = self.path.partition('?')
        with lock:
            count[0] += 1
            k = count[0]
        rec = {'method': self.command, 'path': path, 'query': query,
               'version': self.request_version,
               'headers': [[h, v] for h, v in self.headers.items()]}
        with open(os.path.join(DIR, '%d.body' % k), 'wb') as f:
            f.write(body)
        with open(os.path.join(DIR, '%d.json' % k), 'w') as f:
            json.dump(rec, f)
        first = path.split('/')[1] if path.count('/') > 1 else ''
        if first == 'bad':
            self.answer(400, 'invalid name: unexpected character\nmore detail\n')
        elif first == 'fail':
            self.answer(500, 'ingest failed: disk full\nsecond line\n')
        elif first == 'slow':
            time.sleep(5)
            self.answer(200, '')
        else:
            self.answer(200, '')

    do_GET = do_POST


server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
server.daemon_threads = True
with open(os.path.join(DIR, 'port.tmp'), 'w') as f:
    f.write('%d\n' % server.server_address[1])
os.rename(os.path.join(DIR, 'port.tmp'), os.path.join(DIR, 'port'))
threading.Thread(target=server.serve_forever, daemon=True).start()
start = time.time()
while not os.path.exists(os.path.join(DIR, 'stop')) and time.time() - start < 120:
    time.sleep(0.2)
server.shutdown()
