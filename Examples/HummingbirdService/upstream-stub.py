#!/usr/bin/env python3
"""The upstream QuoteService calls: GET /price?symbol=S answers a quote as JSON, with `Connection: close`, so every
request of the service opens a connection of its own and a connect fault (system.net) is never hidden by
AsyncHTTPClient's pool. Usage: upstream-stub.py PORT (prints "listening PORT" when it accepts)."""
import http.server
import json
import sys
import urllib.parse


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        symbol = urllib.parse.parse_qs(url.query).get("symbol", ["ACME"])[0]
        body = json.dumps({"symbol": symbol, "price": 1234.5, "currency": "EUR"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def log_message(self, format, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


server = Server(("127.0.0.1", int(sys.argv[1])), Handler)
print("listening", server.server_address[1], flush=True)
server.serve_forever()
