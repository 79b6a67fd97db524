package report

// KebabFlag names a setting as a flag, for the external tests.
var KebabFlag = kebabFlag
