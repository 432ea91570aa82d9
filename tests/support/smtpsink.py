#!/usr/bin/python3
"""A local SMTP sink for the tests and benchmarks of campaigns' e-mail (tests/support/smtpsink.h).

Listens on 127.0.0.1 with STARTTLS (a self-signed certificate made with openssl when none is given),
AUTH PLAIN/LOGIN over TLS when --user is given, and writes each message it accepts into --dir as
NNNNNN.eml (the bytes received) and NNNNNN.json: the envelope, the headers decoded, the text/plain
and text/html parts decoded, whether the session used TLS and AUTH, and whether its DKIM signature
verifies against --dkim-public-key (null without a key). Recipients whose local part starts with
"hard-bounce" get 550 on RCPT, "soft-bounce" 451. Prints "READY <port>" once it listens, and ends
when its standard input closes (the test that started it has ended, however it ended) or on SIGTERM.

Debian 12: python3-aiosmtpd (1.4.3) and python3-dkim.
"""

import argparse
import asyncio
import base64
import email
import email.policy
import json
import os
import time
import signal
import socket
import ssl
import subprocess
import sys

from email.header import decode_header, make_header

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=0, help="0: pick a free port (printed)")
    p.add_argument("--dir", required=True, help="where messages are written")
    p.add_argument("--cert", help="PEM certificate (made in --dir when absent)")
    p.add_argument("--key", help="PEM private key of --cert")
    p.add_argument("--no-starttls", action="store_true", help="do not offer STARTTLS")
    p.add_argument("--require-starttls", action="store_true", help="refuse mail commands before STARTTLS")
    p.add_argument("--implicit-tls", action="store_true", help="TLS from the start (smtps)")
    p.add_argument("--user", help="AUTH required with this user")
    p.add_argument("--password", default="")
    p.add_argument("--dkim-public-key", help="PEM public key to verify DKIM signatures with")
    p.add_argument("--dkim-selector", default="")
    p.add_argument("--dkim-domain", default="")
    p.add_argument("--idle-timeout", type=float, default=300,
                   help="seconds of silence after which the server closes a connection (421)")
    p.add_argument("--envelope-only", action="store_true",
                   help="only each message's envelope recipients, a line each in recipients.log (fast)")
    p.add_argument("--count-only", action="store_true",
                   help="write nothing per message (benchmarks): only the count, in count.txt at the end")
    return p.parse_args()


def ensure_certificate(args):
    cert = args.cert or os.path.join(args.dir, "sink-cert.pem")
    key = args.key or os.path.join(args.dir, "sink-key.pem")
    if not (os.path.exists(cert) and os.path.exists(key)):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def dkim_record(path):
    """The DNS TXT record that publishes the public key of PEM file `path`."""
    with open(path, "rb") as f:
        pem = f.read()
    body = b"".join(line.strip() for line in pem.splitlines() if line and not line.startswith(b"-----"))
    base64.b64decode(body)  # a readable key, or fail now
    return b"v=DKIM1; k=rsa; p=" + body


def text_of(part):
    try:
        return part.get_content()
    except Exception:  # a part we cannot decode is reported as raw text
        payload = part.get_payload(decode=True) or b""
        return payload.decode("utf-8", "replace")


class Sink:
    def __init__(self, args):
        self.args = args
        self.count = 0
        self.closed = 0  # connections ended (closed.txt)
        self.record = dkim_record(args.dkim_public_key) if args.dkim_public_key else None
        self.dkim_name = ("%s._domainkey.%s." % (args.dkim_selector, args.dkim_domain)).encode()

    def dns(self, name, timeout=5):
        if self.record is not None and name.rstrip(b".") + b"." == self.dkim_name:
            return self.record
        return None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0].lower()
        if local.startswith("hard-bounce"):
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        if local.startswith("soft-bounce"):
            return "451 4.3.0 <%s>: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        if self.args.count_only:
            return "250 OK queued"
        if self.args.envelope_only:
            with open(os.path.join(self.args.dir, "recipients.log"), "a", encoding="utf-8") as f:
                f.write("".join(r + "\n" for r in envelope.rcpt_tos))
            return "250 OK queued"
        number = self.count
        content = envelope.original_content or envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        base = os.path.join(self.args.dir, "%06d" % number)
        with open(base + ".eml", "wb") as f:
            f.write(content)
        record = {
            "number": number,
            "mailFrom": envelope.mail_from,
            "recipients": list(envelope.rcpt_tos),
            "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
            "auth": bool(getattr(session, "authenticated", False)),
            "connection": id(session),
            "headers": {},
            "text": None,
            "html": None,
            "dkim": None,
            "size": len(content),
            "receivedAt": time.time(),
        }
        try:
            msg = email.message_from_bytes(content, policy=email.policy.default)
            headers = {}
            for name, value in msg.raw_items():
                # RFC 2047's own decoder: Python 3.11's address parser keeps the white space between
                # two encoded words of a display name, which RFC 2047 says to drop
                unfolded = value.replace("\r\n", "").replace("\n", "")
                try:
                    decoded = str(make_header(decode_header(unfolded)))
                except Exception:
                    decoded = unfolded
                headers.setdefault(name, decoded.strip())
            record["headers"] = headers
            for part in msg.walk():
                ctype = part.get_content_type()
                if ctype == "text/plain" and record["text"] is None:
                    record["text"] = text_of(part)
                    record["textTransferEncoding"] = part.get("Content-Transfer-Encoding", "")
                elif ctype == "text/html" and record["html"] is None:
                    record["html"] = text_of(part)
                    record["htmlTransferEncoding"] = part.get("Content-Transfer-Encoding", "")
            record["contentType"] = msg.get_content_type()
        except Exception as e:  # a message we cannot parse is recorded as such
            record["parseError"] = str(e)
        lines = content.split(b"\r\n")
        record["longestLine"] = max((len(line) for line in lines), default=0)
        record["bareLineFeeds"] = content.replace(b"\r\n", b"").count(b"\n")
        if self.record is not None:
            import dkim
            try:
                record["dkim"] = bool(dkim.verify(content, dnsfunc=self.dns))
            except Exception as e:
                record["dkim"] = False
                record["dkimError"] = str(e)
        with open(base + ".json.tmp", "w", encoding="utf-8") as f:
            json.dump(record, f, ensure_ascii=False)
        os.replace(base + ".json.tmp", base + ".json")  # readers never see half a file
        return "250 OK queued as %06d" % number


def main():
    args = parse_args()
    os.makedirs(args.dir, exist_ok=True)
    sink = Sink(args)
    context = None if (args.no_starttls and not args.implicit_tls) else ensure_certificate(args)

    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword) and auth_data.login.decode() == args.user
              and auth_data.password.decode() == args.password)
        # handled=False: aiosmtpd answers 535 itself (its default, True, answers nothing)
        return AuthResult(success=ok, handled=False)

    kwargs = {
        "enable_SMTPUTF8": True,
        "decode_data": False,
        "hostname": "sink.localhost",
        "ident": "Liaison test SMTP sink",
        "timeout": args.idle_timeout,
    }
    if context is not None and not args.no_starttls and not args.implicit_tls:
        kwargs["tls_context"] = context
        kwargs["require_starttls"] = args.require_starttls
    if args.user:
        kwargs["authenticator"] = authenticate
        kwargs["auth_required"] = True
        # aiosmtpd knows TLS only from STARTTLS: on an implicit TLS connection it is there anyway
        kwargs["auth_require_tls"] = not args.implicit_tls
    else:
        kwargs["auth_require_tls"] = False

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    class SinkSMTP(SMTP):
        # closed.txt counts the connections that ended, or that the server gave up for silence (a
        # TLS connection is only lost once the client reads the closing alert, or 30 s later)
        counted = False

        def count_closed(self):
            if not self.counted:
                self.counted = True
                sink.closed += 1
                with open(os.path.join(args.dir, "closed.txt"), "w") as f:
                    f.write("%d\n" % sink.closed)

        def _timeout_cb(self):
            self.count_closed()
            super()._timeout_cb()

        def connection_lost(self, error):
            super().connection_lost(error)
            self.count_closed()

    def factory():
        return SinkSMTP(sink, loop=loop, **kwargs)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    server = loop.run_until_complete(
        loop.create_server(factory, sock=sock, ssl=context if args.implicit_tls else None))
    port = sock.getsockname()[1]

    def stop(*_):
        loop.stop()

    loop.add_signal_handler(signal.SIGTERM, stop)
    loop.add_signal_handler(signal.SIGINT, stop)

    def stdin_readable():
        if not os.read(sys.stdin.fileno(), 4096):  # end of file: the parent is gone
            loop.stop()

    try:
        loop.add_reader(sys.stdin.fileno(), stdin_readable)
    except (ValueError, OSError):
        pass  # no usable standard input: SIGTERM only

    sys.stdout.write("READY %d\n" % port)
    sys.stdout.flush()
    try:
        loop.run_forever()
    finally:
        server.close()
        with open(os.path.join(args.dir, "count.txt"), "w") as f:
            f.write("%d\n" % sink.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
