// The toy rule system's script: served from its package's static/ folder.
export const TOY = "toy";
