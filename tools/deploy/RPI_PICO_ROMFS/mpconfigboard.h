// The Raspberry Pi Pico as the game's release uses it: MicroPython's
// RPI_PICO board with a ROMFS partition between the firmware and the
// littlefs filesystem (ports/rp2/rp2_flash.c puts it just below the
// filesystem; MicroPython mounts it at /rom at every start).
//
// The filesystem keeps RPI_PICO's place and size (1408 KB from flash
// offset 0xA0000 to the end of the 2 MB flash), so the saves on a board
// stay where they are through an upgrade from any earlier release or from
// stock MicroPython. The ROMFS partition is then 0x53000-0xA0000: 308 KB
// for the game's image (256.5 KB in 1.2.0: a sixth to grow into, as the
// game grows with each release), and the firmware below it (324.5 KB in
// 1.2.0) keeps 7.5 KB: it changes only with the MicroPython it is pinned
// to. tools/deploy/romfs.py reads these sizes from here; the build
// (make uf2, tools/deploy/release.py) refuses a firmware that reaches the
// partition or an image that does not fit it.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)
#define MICROPY_HW_ROMFS_BYTES                  (308 * 1024)
