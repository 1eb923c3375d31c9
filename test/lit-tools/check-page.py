#!/usr/bin/env python3
"""check-page.py [--structure-only] PAGE.html...: checks HTML pages the way a reader would see them.

For every page:
  - structure: the page parses, every element that needs a closing tag is closed in order, it ends
    with </html> (a truncated or interleaved write fails here), and it says whether it reloads itself
    (<meta http-equiv="refresh">);
  - unless --structure-only: headless Chromium (Debian's `chromium`) loads it from disk with the
    network off, then
      * the DOM after the scripts ran must carry data-js="ok" (set by the page's last script
        statement) and no data-js-error (set by its window.onerror handler), and Chromium's console
        log must hold no uncaught exception;
      * a screenshot must not be blank: enough non-white pixels and enough distinct colours.
Prints one line per page for FileCheck; exits 1 on the first failure.
"""
import html.parser
import os
import re
import subprocess
import sys
import tempfile

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Structure(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.refresh, self.ids = [], [], False, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
            self.refresh = True
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            opened = self.stack[-1] if self.stack else None
            self.errors.append(f"</{tag}> at line {self.getpos()[0]} closes {opened}")
            return
        self.stack.pop()


def structure(path):
    text = open(path, encoding="utf-8").read()
    p = Structure()
    p.feed(text)
    p.close()
    if not text.lstrip().lower().startswith("<!doctype html>"):
        p.errors.append("no <!DOCTYPE html>")
    if not text.rstrip().endswith("</html>"):
        p.errors.append("does not end with </html> (truncated?)")
    if p.stack:
        p.errors.append(f"unclosed elements: {[t for t, _ in p.stack]}")
    if len(set(p.ids)) != len(p.ids):
        p.errors.append("duplicate element ids")
    return p


def chromium(args, profile):
    cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
           # No network: the page must be self-contained.
           "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>"] + args
    env = dict(os.environ, HOME=profile)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)


def render(path, profile):
    url = "file://" + os.path.abspath(path)
    dom = chromium(["--dump-dom", url], profile)
    problems = []
    body = re.search(r"<body[^>]*>", dom.stdout)
    body = body.group(0) if body else ""
    if 'data-js="ok"' not in body:
        problems.append("the page's script did not finish (no data-js=\"ok\" on <body>)")
    error = re.search(r'data-js-error="([^"]*)"', body)
    if error:
        problems.append(f"a script error was reported: {error.group(1)}")
    for line in dom.stderr.splitlines():
        if "CONSOLE" in line and ("Uncaught" in line or "Error" in line):
            problems.append("console: " + line.strip())
    shot = os.path.join(profile, "shot.png")
    chromium(["--window-size=1280,1600", f"--screenshot={shot}", url], profile)
    if not os.path.exists(shot):
        return problems + ["no screenshot was written: " + dom.stderr[-300:]]
    import matplotlib.image  # Debian's python3-matplotlib (reads PNG through Pillow)
    import numpy as np
    img = matplotlib.image.imread(shot)[..., :3]
    ink = float((img.min(axis=2) < 0.9).mean())
    colours = len(np.unique((img * 255).astype(np.uint8).reshape(-1, 3), axis=0))
    if ink < 0.02 or colours < 16:
        problems.append(f"the screenshot looks blank: {ink:.1%} non-white pixels, {colours} colours")
    return problems


def main():
    args = sys.argv[1:]
    structure_only = "--structure-only" in args
    pages = [a for a in args if not a.startswith("--")]
    if not pages:
        sys.exit("usage: check-page.py [--structure-only] PAGE.html...")
    for page in pages:
        s = structure(page)
        if s.errors:
            print(f"{os.path.basename(page)}: INVALID: {'; '.join(s.errors)}")
            sys.exit(1)
        line = f"{os.path.basename(page)}: valid, {'reloads' if s.refresh else 'static'}"
        if not structure_only:
            with tempfile.TemporaryDirectory() as profile:
                problems = render(page, profile)
            if problems:
                print(f"{line}; RENDER FAILED: {'; '.join(problems)}")
                sys.exit(1)
            line += ", scripts ok, screenshot not blank"
        print(line)


main()
