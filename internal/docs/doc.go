// Package docs holds the test that keeps CONTRIBUTING.md true: every
// file, directory, function, method, test and name it names must exist,
// and a name that follows a file in a step of a recipe must be declared
// in that file, so that moving or renaming one fails a test rather than
// misleading the next person.
package docs
