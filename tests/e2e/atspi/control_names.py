#!/usr/bin/python3
"""Every control a person can use has a name a screen reader reads, in every area of the window.

Signs in, opens each area of the navigation in turn (and a contact's detail, the first
conversation, in Campaigns the first campaign, a drip, with its contacts tab, and in the Assistant
the knowledge base's entries read from its table, then the test console, the suggestions and the
statistics), and the form each area's Ctrl+N opens (a new contact, deal, task, knowledge entry),
and lists each showing control of an interactive role (buttons, fields, lists, tables, combo boxes,
check boxes, spin boxes, tabs) whose accessible name is empty. Prints the unnamed ones with where
they are; exits 1 when there is any.
"""

import os
import sys
import time

import pyatspi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import liaison_atspi as ui  # noqa: E402

NAMES = {
    "tr": {"signIn": "Giriş yap", "navigation": "Gezinme",
           "areas": ["Ana sayfa", "Kişiler", "Fırsatlar", "Görevler", "Gelen kutusu", "Kampanyalar", "Asistan"],
           "contacts": "Kişiler", "conversations": "Konuşmalar", "campaigns": "Kampanyalar",
           "campaignTabs": ["Kişiler", "Alıcılar"],
           "assistant": "Asistan", "knowledge": "Bilgi bankası",
           "assistantTabs": ["Test konsolu", "Öneriler", "İstatistikler"],
           "forms": {"Kişiler": ("ctrl+n", "Yeni kişi"), "Fırsatlar": ("ctrl+n", "Yeni fırsat"),
                     "Görevler": ("Yeni…", "Yeni görev"), "Asistan": ("ctrl+n", "Yeni bilgi kaydı")}},
    "en": {"signIn": "Sign in", "navigation": "Navigation",
           "areas": ["Home", "Contacts", "Deals", "Tasks", "Inbox", "Campaigns", "Assistant"],
           "contacts": "Contacts", "conversations": "Conversations", "campaigns": "Campaigns",
           "campaignTabs": ["Contacts", "Recipients"],
           "assistant": "Assistant", "knowledge": "Knowledge base",
           "assistantTabs": ["Test console", "Suggestions", "Statistics"],
           "forms": {"Contacts": ("ctrl+n", "New contact"), "Deals": ("ctrl+n", "New deal"),
                     "Tasks": ("New…", "New task"), "Assistant": ("ctrl+n", "New knowledge entry")}},
}

INTERACTIVE = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX, pyatspi.ROLE_RADIO_BUTTON,
    pyatspi.ROLE_TEXT, pyatspi.ROLE_PASSWORD_TEXT, pyatspi.ROLE_COMBO_BOX, pyatspi.ROLE_SPIN_BUTTON,
    pyatspi.ROLE_LIST, pyatspi.ROLE_TABLE, pyatspi.ROLE_TREE, pyatspi.ROLE_PAGE_TAB, pyatspi.ROLE_SLIDER,
}


def path_of(acc):
    parts = []
    a = acc
    for _ in range(12):
        try:
            a = a.parent
        except Exception:
            break
        if a is None:
            break
        n = ui.name_of(a)
        if n:
            parts.append("%s '%s'" % (ui.role_name(a), n))
            if len(parts) >= 2:
                break
    return " < ".join(parts)


def where(acc):
    try:
        e = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return "%d,%d %dx%d" % (e.x, e.y, e.width, e.height)
    except Exception:
        return "?"


def hint_of(acc):
    """What else tells the control apart: its description, text or first item."""
    bits = []
    try:
        if acc.description:
            bits.append("description %r" % acc.description[:40])
    except Exception:
        pass
    try:
        t = ui.text_of(acc)
        if t:
            bits.append("text %r" % t[:30])
    except Exception:
        pass
    try:
        if acc.childCount:
            bits.append("first %r" % ui.name_of(acc.getChildAtIndex(0))[:30])
    except Exception:
        pass
    return ", ".join(bits)


def unnamed_in(root):
    found = []
    for acc in ui.walk(root, into_items=False):
        try:
            if acc.getRole() not in INTERACTIVE or not ui.showing(acc):
                continue
            # A table's or list's own scroll bars and header buttons are Qt's parts, not our controls.
            if acc.getRole() == pyatspi.ROLE_PUSH_BUTTON and acc.parent is not None and \
                    acc.parent.getRole() in (pyatspi.ROLE_SCROLL_BAR,):
                continue
            if not ui.name_of(acc).strip():
                found.append("%s at %s (%s) in %s" % (ui.role_name(acc), where(acc), hint_of(acc),
                                                       path_of(acc) or "the window"))
        except Exception:
            continue
    return found


def run(args):
    names = NAMES[args.lang]
    ui.unlock_keyring()
    app = ui.App(args.binary, args.data_dir).start()
    unnamed = []
    try:
        ui.sign_in(app, args.email, args.password, names["signIn"])
        win = ui.main_window(app, names["navigation"])
        for area in names["areas"]:
            ui.open_area(win, names["navigation"], area)
            time.sleep(1.0)
            if area == names["contacts"]:
                table = ui.find(win, pyatspi.ROLE_TABLE)
                cells = [c for c in ui.find_all(table, pyatspi.ROLE_TABLE_CELL) if ui.showing(c)][:1]
                if cells:
                    ui.click(cells[0])  # a contact shown: its detail and tabs too
                    time.sleep(1.0)
            if area == names["areas"][4]:
                conversations = ui.find(win, pyatspi.ROLE_LIST, names["conversations"])
                items = ui.find_all(conversations, pyatspi.ROLE_LIST_ITEM)
                if items:
                    ui.click(items[0])
                    time.sleep(1.0)
            if area == names["campaigns"]:
                # The first campaign (a drip) chosen: its statistics, then each tab under the list.
                table = ui.find(win, pyatspi.ROLE_TABLE, names["campaigns"], exact=True)
                cells = [c for c in ui.find_all(table, pyatspi.ROLE_TABLE_CELL) if ui.showing(c)][:1]
                if not cells:
                    raise ui.WalkError("no campaign in the list")
                ui.click(cells[0])
                time.sleep(1.0)
                for tab in names["campaignTabs"]:
                    here = unnamed_in(win)
                    for u in here:
                        unnamed.append("%s: %s" % (area, u))
                    ui.click(ui.find(win, pyatspi.ROLE_PAGE_TAB, tab, exact=True))
                    time.sleep(1.0)
                    ui.screenshot(os.path.join(args.shots, "campaigns-%s.png" % tab))
            if area == names["assistant"]:
                # The knowledge base's entries are read from its table (the seeded questions), then
                # each tab after it.
                table = ui.find(win, pyatspi.ROLE_TABLE, names["knowledge"], exact=True)
                cells = []

                def read_entries():
                    cells[:] = [ui.name_of(c) for c in ui.find_all(table, pyatspi.ROLE_TABLE_CELL) if ui.showing(c)]
                    return "Kargo ücreti ne kadar?" in cells and "How much is shipping?" in cells
                try:
                    ui.wait_for(read_entries, "the knowledge base's entries")
                except ui.WalkError:
                    raise ui.WalkError("the knowledge table does not read the seeded entries: %r" % cells[:12])
                for tab in names["assistantTabs"]:
                    here = unnamed_in(win)
                    for u in here:
                        unnamed.append("%s: %s" % (area, u))
                    ui.click(ui.find(win, pyatspi.ROLE_PAGE_TAB, tab, exact=True))
                    time.sleep(1.0)
                    ui.screenshot(os.path.join(args.shots, "assistant-%s.png" % tab))
            here = unnamed_in(win)
            for u in here:
                unnamed.append("%s: %s" % (area, u))
            ui.log("ok %s: %d unnamed" % (area, len(here)))
            ui.screenshot(os.path.join(args.shots, "area-%d.png" % names["areas"].index(area)))
            if area in names["forms"]:
                # The area's form (Ctrl+N; in Tasks, where Ctrl+N is the quick-add line, New…): its
                # fields are read by name too.
                how, form = names["forms"][area]
                if how == "ctrl+n":
                    ui.key("ctrl+n")
                else:
                    ui.press(ui.find(win, pyatspi.ROLE_PUSH_BUTTON, how, exact=True))
                dialog = app.window(form)
                here = unnamed_in(dialog)
                for u in here:
                    unnamed.append("%s: %s" % (form, u))
                ui.log("ok %s: %d unnamed" % (form, len(here)))
                ui.screenshot(os.path.join(args.shots, "form-%d.png" % names["areas"].index(area)))
                ui.key("Escape")
                ui.absent(app.root, pyatspi.ROLE_DIALOG, form, exact=True)
    finally:
        rc = app.stop()
        ui.log("stopped %s" % rc)
    for u in unnamed:
        print("UNNAMED", u, flush=True)
    if unnamed:
        raise ui.WalkError("%d controls have no accessible name" % len(unnamed))
    if rc != 0:
        raise ui.WalkError("the program left with exit code %s" % rc)


if __name__ == "__main__":
    ui.scenario_main(run)
