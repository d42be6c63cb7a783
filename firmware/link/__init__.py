"""The link between two boards: the frames on the cable (linkframe), the
message layer that delivers each message once and in order (link), the
board's UART (linkport), LINK on the title (linkstart) and the link match's
session (linkmatch). Cold but for linkport: loaded only in a link match and
let go, this package too, when the title shows."""
