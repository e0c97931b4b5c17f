"""A test service: starts a grandchild (sleep) in its process group, prints both pids, answers GET with
200 "ok" (with 503 to the first WARMUP_REQUESTS GETs, 0 by default)."""
import http.server
import os
import subprocess

child = subprocess.Popen(["sleep", "60"])
print(f"pid {os.getpid()} child {child.pid}", flush=True)
warmup = int(os.environ.get("WARMUP_REQUESTS", "0"))


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        global warmup
        if warmup > 0:
            warmup -= 1
            self.send_response(503)
            self.end_headers()
            return
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format, *args):
        pass


http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
