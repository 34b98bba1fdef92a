// The README example tests start programs with the shared helpers.
@_exported import MischiefTestSupport
