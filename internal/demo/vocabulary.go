package demo

// Word lists the generators draw realistic values from. Every e-mail
// address and phone number built from them uses reserved example domains and
// fictional number ranges.

var firstNames = []string{
	"alice", "bob", "carmen", "dmitri", "emma", "farah", "gustavo", "hana", "ivan", "julia",
	"kwame", "lena", "mateo", "nadia", "oliver", "priya", "quentin", "rosa", "sven", "tomoko",
	"uma", "viktor", "wei", "ximena", "yusuf", "zoe", "amara", "bjorn", "chloe", "diego",
	"elif", "felix", "grace", "hugo", "ines", "jonas", "keiko", "luca", "maya", "noah",
	"olga", "pablo", "ravi", "sara", "tariq", "ursula", "valentina", "william", "yara", "zain",
}

var lastNames = []string{
	"smith", "fischer", "garcia", "ivanova", "mensah", "nguyen", "okafor", "patel", "rossi", "schmidt",
	"tanaka", "walker", "kowalski", "silva", "muller", "dubois", "jensen", "kim", "lopez", "novak",
	"andersen", "bianchi", "costa", "haddad", "ito", "johansson", "khan", "larsen", "moreau", "nakamura",
	"obrien", "petrov", "quinn", "reyes", "sato", "torres", "vargas", "weber", "yilmaz", "zhang",
}

var countries = []string{"US", "DE", "IN", "BR", "JP", "GB", "FR", "NG", "MX", "CA", "KR", "ES", "IT", "AU", "PL"}

var plans = []string{"free", "free", "free", "plus", "plus", "pro", "team"}

var clients = []string{"ios", "android", "web", "web", "android", "desktop"}

var eventTypes = []string{"like", "like", "like", "comment", "share", "follow", "mention", "reply", "view", "view", "view"}
