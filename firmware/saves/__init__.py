"""What the board keeps on its flash: the power-cut-safe container
(storage), the game save's payload (gamesave, cutsave for a match waiting
for its cut), the game records (records), and the App's saving
(saving) with its cold parts: reading the saves at start (saveload), a
refused save (savefail), a newer version's save set aside (savenewer)."""
