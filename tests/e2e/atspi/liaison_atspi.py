"""Drives the real Liaison window through the accessibility bus (AT-SPI), as a screen reader user
or a person with a mouse would: controls are found by their role and the name a screen reader
reads, pressed through their action or clicked where they are on the screen (xdotool), and text is
typed into the focused field. Every wait is bounded.

Used by the end-to-end tests in tests/e2e/test_accessiblewindow.cpp, which seed the data directory,
run the scenario script inside a throwaway D-Bus session and check the database afterwards.
"""

import os
import signal
import subprocess
import sys
import time

import pyatspi

STEP_TIMEOUT = 20.0  # seconds for one control to show up or one state to be reached


class WalkError(Exception):
    pass


def log(*parts):
    print(*parts, flush=True)


def role_name(acc):
    try:
        return acc.getRoleName()
    except Exception:  # a control gone while it was looked at
        return ""


def name_of(acc):
    try:
        return acc.name or ""
    except Exception:
        return ""


def showing(acc):
    try:
        return acc.getState().contains(pyatspi.STATE_SHOWING)
    except Exception:
        return False


# Containers whose many children (table cells, list rows) are looked into only when asked: a table
# of 2,000 contacts would make every search slow.
ITEM_CONTAINERS = {pyatspi.ROLE_TABLE, pyatspi.ROLE_TREE_TABLE, pyatspi.ROLE_LIST, pyatspi.ROLE_TREE}


def walk(root, into_items=False, limit=20000):
    """The accessible objects under root, breadth first, at most `limit`."""
    queue = [root]
    seen = 0
    while queue and seen < limit:
        acc = queue.pop(0)
        seen += 1
        yield acc
        try:
            if not into_items and acc is not root and acc.getRole() in ITEM_CONTAINERS:
                continue
            for i in range(min(acc.childCount, 500)):
                child = acc.getChildAtIndex(i)
                if child is not None:
                    queue.append(child)
        except Exception:
            continue


def matches(acc, role, name, exact):
    if role is not None and acc.getRole() != role:
        return False
    if name is None:
        return True
    n = name_of(acc)
    return n == name if exact else name.lower() in n.lower()


def find(root, role=None, name=None, exact=False, into_items=False, visible=True, timeout=STEP_TIMEOUT):
    """The first control under root with this role and name, waiting for it to show."""
    deadline = time.monotonic() + timeout
    while True:
        for acc in walk(root, into_items=into_items):
            try:
                if matches(acc, role, name, exact) and (not visible or showing(acc)):
                    return acc
            except Exception:
                continue
        if time.monotonic() > deadline:
            raise WalkError("not found: role %s name %r" % (role, name))
        time.sleep(0.2)


def find_all(root, role=None, name=None, exact=False, into_items=True):
    out = []
    for acc in walk(root, into_items=into_items):
        try:
            if matches(acc, role, name, exact):
                out.append(acc)
        except Exception:
            continue
    return out


def absent(root, role=None, name=None, exact=False, into_items=False, timeout=STEP_TIMEOUT):
    """Waits until no showing control with this role and name is left."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(matches(a, role, name, exact) and showing(a) for a in walk(root, into_items=into_items)):
            return True
        time.sleep(0.2)
    raise WalkError("still there: role %s name %r" % (role, name))


def press(acc):
    """Presses a button through its accessible action (what a screen reader's activate does)."""
    action = acc.queryAction()
    for i in range(action.nActions):
        if action.getName(i) in ("Press", "press", "click", "SetFocus", "Toggle", "toggle"):
            action.doAction(i)
            return
    action.doAction(0)


def centre(acc):
    ext = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return ext.x + ext.width // 2, ext.y + ext.height // 2


def click(acc):
    """Clicks the middle of the control on the screen, as a mouse does."""
    x, y = centre(acc)
    subprocess.run(["xdotool", "mousemove", "--sync", str(x), str(y), "click", "1"], check=True, timeout=10)
    time.sleep(0.3)


def key(*keys):
    subprocess.run(["xdotool", "key", "--clearmodifiers"] + list(keys), check=True, timeout=10)
    time.sleep(0.3)


def focus(acc):
    acc.queryComponent().grabFocus()
    time.sleep(0.2)


def type_into(acc, text):
    """Focuses a text field and types into it (what the keyboard would put there)."""
    focus(acc)
    editable = acc.queryEditableText()
    length = acc.queryText().characterCount
    editable.insertText(length, text, len(text))
    time.sleep(0.2)


def set_text(acc, text):
    focus(acc)
    acc.queryEditableText().setTextContents(text)
    time.sleep(0.2)


def text_of(acc):
    t = acc.queryText()
    return t.getText(0, t.characterCount)


def wait_for(predicate, what, timeout=STEP_TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except Exception:
            pass
        time.sleep(0.2)
    raise WalkError("timed out waiting for " + what)


def screenshot(path):
    subprocess.run(["import", "-window", "root", path], timeout=30, check=False)


def unlock_keyring():
    """An unlocked secret service in this D-Bus session, as a desktop session has (else the program
    waits for a keyring prompt nobody answers before it keeps its secrets in a file)."""
    try:
        subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets"], input=b"liaison-test",
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        pass


def wait_for_display(timeout=15.0):
    """The X server answers (a virtual one may still be starting)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = subprocess.run(["xdotool", "getdisplaygeometry"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=10, check=False)
        if r.returncode == 0:
            return
        time.sleep(0.3)
    raise WalkError("the X server %s does not answer" % os.environ.get("DISPLAY"))


class App:
    """The real program on a data directory, registered on the accessibility bus."""

    def __init__(self, binary, data_dir, env=None):
        self.binary = binary
        self.data_dir = data_dir
        e = dict(os.environ)
        e["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] = "1"
        e["QT_ACCESSIBILITY"] = "1"
        e["QT_QPA_PLATFORM"] = "xcb"
        e.update(env or {})
        self.env = e
        self.proc = None
        self.root = None

    def start(self):
        wait_for_display()
        self.proc = subprocess.Popen(
            [self.binary, "--data-dir", self.data_dir, "--set", "server/listen=127.0.0.1:0"],
            env=self.env, stdout=sys.stdout, stderr=sys.stdout)
        deadline = time.monotonic() + 60
        desktop = pyatspi.Registry.getDesktop(0)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise WalkError("the program ended with %s before it showed" % self.proc.returncode)
            for i in range(desktop.childCount):
                app = desktop.getChildAtIndex(i)
                try:
                    if app is not None and app.get_process_id() == self.proc.pid:
                        self.root = app
                        return self
                except Exception:
                    continue
            time.sleep(0.3)
        raise WalkError("the program never appeared on the accessibility bus")

    def window(self, name=None, timeout=STEP_TIMEOUT):
        """A top-level window or dialog of the program (by title)."""
        deadline = time.monotonic() + timeout
        while True:
            for i in range(self.root.childCount):
                w = self.root.getChildAtIndex(i)
                if w is not None and showing(w) and (name is None or name.lower() in name_of(w).lower()):
                    return w
            if time.monotonic() > deadline:
                names = [name_of(self.root.getChildAtIndex(i)) for i in range(self.root.childCount)]
                raise WalkError("no window %r among %r" % (name, names))
            time.sleep(0.2)

    def stop(self):
        """SIGTERM, as the desktop's session ending does; the program saves and leaves."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
            raise WalkError("the program did not stop on SIGTERM")


def sign_in(app, email, password, button="Sign in"):
    """Signs in when the program asks who signs in; a remembered session opens the window at once."""
    dialog = app.window()
    try:
        find(dialog, pyatspi.ROLE_PASSWORD_TEXT, timeout=3)
    except WalkError:
        log("ok no sign-in asked (a remembered session)")
        return
    fields = [a for a in find_all(dialog, pyatspi.ROLE_TEXT, into_items=False) if showing(a)]
    if not fields:
        raise WalkError("no e-mail field in the sign-in dialog")
    set_text(fields[0], email)
    set_text(find(dialog, pyatspi.ROLE_PASSWORD_TEXT), password)
    press(find(dialog, pyatspi.ROLE_PUSH_BUTTON, button, exact=True))


def main_window(app, navigation):
    """The program's main window: the top-level window holding the navigation list (by its name)."""
    deadline = time.monotonic() + STEP_TIMEOUT
    while time.monotonic() < deadline:
        for i in range(app.root.childCount):
            w = app.root.getChildAtIndex(i)
            try:
                if w is not None and showing(w):
                    find(w, pyatspi.ROLE_LIST, navigation, timeout=0.5)
                    return w
            except WalkError:
                continue
        time.sleep(0.3)
    raise WalkError("the main window did not show")


def area_entry(window, navigation, title):
    """An area's entry in the navigation list: named by the area ("Gelen kutusu"), or by the area and
    its count when it has one ("Gelen kutusu, 2 okunmamış", "Görevler, 1 gecikmiş")."""
    nav = find(window, pyatspi.ROLE_LIST, navigation)
    deadline = time.monotonic() + STEP_TIMEOUT
    while True:
        for acc in walk(nav, into_items=True):
            try:
                if acc.getRole() == pyatspi.ROLE_LIST_ITEM and showing(acc):
                    n = name_of(acc)
                    if n == title or n.startswith(title + ", "):
                        return acc
            except Exception:
                continue
        if time.monotonic() > deadline:
            raise WalkError("no navigation entry for %r" % title)
        time.sleep(0.2)


def open_area(window, navigation, title):
    """Clicks an area's entry in the navigation list."""
    click(area_entry(window, navigation, title))


def scenario_main(run, phases=None):
    """The command line every scenario takes (--binary, --data-dir, --lang, --email, --password,
    --shots, and --phase when it has phases); runs it and exits 1 with the reason on a WalkError."""
    import argparse
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--data-dir", required=True)
    if phases:
        p.add_argument("--phase", choices=phases, required=True)
    p.add_argument("--lang", choices=["tr", "en"], default="tr")
    p.add_argument("--email", required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--shots", default=".")
    args = p.parse_args()
    try:
        run(args)
    except WalkError as e:
        print("FAIL", e, flush=True)
        sys.exit(1)
