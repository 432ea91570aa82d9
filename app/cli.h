#pragma once

// The command line (README, "Command line"): the desktop app, `serve`,
// `user add`, `apikey create|list|revoke`, with --data-dir and --set on each. A bad option or
// command prints one line on stderr and exits with 2.
int liaisonMain(int argc, char **argv);
