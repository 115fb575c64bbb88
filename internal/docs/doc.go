// Package docs holds the test that keeps CONTRIBUTING.md true: every
// file, directory, function, method and test it names must exist, so
// that moving one fails a test rather than misleading the next person.
package docs
