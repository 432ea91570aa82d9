#include "app/cli.h"

int main(int argc, char **argv)
{
    return liaisonMain(argc, argv);
}
