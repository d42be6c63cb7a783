"""LINK on the title: the link match in the save, or a new one, on the
link screen that says how the boards find each other
(firmware/link/linkmatch.py: LinkSession becomes app.session, the session in
play kept in it). Imported by LINK only, so the title carries none of
this, and let go with the link's modules (linkmatch.MODULES).

With too little heap for the link's code (the .mpy bundle on stock
MicroPython, whose code sits in RAM), LINK says so and the game against
the CPU goes on as it was.
"""


def start(app):
    try:
        port = app.link_port()
    except Exception as e:
        app.go("message", title=b"LINK", text="The link port did not open: %s" % e,
               then="title")
        return
    kept = app.session
    try:
        from firmware.link.linkmatch import LinkSession

        app.session = LinkSession(app, port, kept)
        app.session.save()
        app.go("link")
    except MemoryError:
        no_room(app, kept)


def no_room(app, kept):
    """The session `kept` as it was, the link's modules let go, and words
    that say what to do."""
    import sys

    from firmware.compat import collect, heap_free, unload

    app.session = kept
    kept = None
    for n in ("link", "link_play"):
        app.let_go(n, ())
    for name in list(sys.modules) if heap_free() is not None else ():
        if name.startswith("firmware.link") or name.startswith("firmware.screens.link") \
                or name == "engine.linkdeal":
            unload(name)     # firmware.link.linkstart too: this code leaves with the call
    collect()
    app.go("message", title=b"LINK",
           text="Not enough memory for link play: here the game's code is in RAM. "
                "Install the .uf2 release to play over the cable.", then="title")
