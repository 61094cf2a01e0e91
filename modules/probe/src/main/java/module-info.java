/**
 * What injected code calls. At run time the agent defines this jar's classes in the boot loader,
 * where they live in the boot loader's unnamed module (this descriptor is then ignored);
 * it exists so that the agent's module can require it at build time.
 */
module dev.tiprobe.probe {
    exports dev.tiprobe.probe;
}
