// simt_settings: prints the simulator's settings table (`./lab help settings`).
#include <simt/simt.hpp>

#include <cstdio>
#include <cstdlib>

int main() {
    std::printf("simt's settings are environment variables, read once when a program starts:\n\n");
    for (const simt::sim::Setting& s : simt::sim::settings()) {
        const char* now = std::getenv(s.name);
        std::printf("%s (default %s%s%s)\n  %s\n  accepts %s\n\n", s.name, s.default_value,
                    now ? ", now " : "", now ? now : "", s.help, s.accepted);
    }
    std::printf("A bad value stops the program before it runs, with exit status 2.\n");
}
