// Providers module.
