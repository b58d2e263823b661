"""Tests against a real broker and app need COORDINATE_BOOTSTRAP_SERVERS and COORDINATE_HTTP_URL; without them they
are skipped, so that a plain pytest elsewhere does not hang."""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from coordinate import Client  # noqa: E402

BOOTSTRAP = os.environ.get("COORDINATE_BOOTSTRAP_SERVERS")
HTTP_URL = os.environ.get("COORDINATE_HTTP_URL")

needs_app = pytest.mark.skipif(
    not (BOOTSTRAP and HTTP_URL),
    reason="set COORDINATE_BOOTSTRAP_SERVERS and COORDINATE_HTTP_URL to run the tests against a broker and app",
)


@pytest.fixture
def client():
    namespace = "py-" + uuid.uuid4().hex[:10]
    with Client(bootstrap_servers=BOOTSTRAP, namespace=namespace, timeout=20.0) as c:
        yield c


class Http:
    """The app's HTTP API for one namespace."""

    def __init__(self, namespace):
        self.base = f"{HTTP_URL.rstrip('/')}/api/namespaces/{urllib.parse.quote(namespace, safe='')}"

    def get(self, path):
        try:
            with urllib.request.urlopen(self.base + path, timeout=10) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return None
            raise

    def unit(self, spec, unit):
        return self.get(f"/work-specs/{spec}/work-units/{urllib.parse.quote(unit, safe='')}")

    def units(self, spec):
        return {u["name"]: u for u in self.get(f"/work-specs/{spec}/work-units?limit=1000")["work_units"]}


@pytest.fixture
def http(client):
    return Http(client.namespace)


def eventually(check, timeout=20.0, interval=0.05):
    """The value of check() once it is truthy, failing after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {check.__doc__ or check}")
        time.sleep(interval)
