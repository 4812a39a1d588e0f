package toolsearch

import (
	"encoding/json"
	"slices"
	"testing"
)

// frameCatalog is a small catalog in English, Spanish and Japanese whose
// descriptions hold frame words of every kind.
func frameCatalog() []Document {
	return []Document{
		{Name: "Email_Checkup_email_format", Description: "Check that an email address is well formed. Please give the full address."},
		{Name: "whatsapp_number_validator", Description: "Tells whether a phone number uses WhatsApp, so you know before you write to it and want no bounce."},
		{Name: "help_center_search", Description: "Search the help center articles; tell me more about a feature."},
		{Name: "buscar_empleo", Description: "Busca ofertas de trabajo por puesto y ciudad.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"puesto":{"type":"string","description":"Puesto de trabajo, por ejemplo camarero"},"ciudad":{"type":"string","description":"Ciudad en la que buscar"}}}`)},
		{Name: "reservar_mesa", Description: "Reserva una mesa en un restaurante de la ciudad para una hora."},
		{Name: "tiempo_actual", Description: "Devuelve el tiempo que hace ahora en una ciudad de España."},
		{Name: "traducir_texto", Description: "Traduce un texto de un idioma a otro, por ejemplo del inglés al español."},
		{Name: "ja_translate", Description: "文章を日本語から英語に翻訳します"},
		{Name: "ja_train_route", Description: "出発駅から到着駅までの電車の乗り換え案内を検索します"},
		{Name: "ja_weather", Description: "指定した都市の天気予報を取得します"},
	}
}

// TestFrameWordsFindNothing checks that a request of frame words only finds
// nothing, and that frame words in a request with other words neither find
// tools nor rank them.
func TestFrameWordsFindNothing(t *testing.T) {
	ix := mustIndex(t, frameCatalog())
	for _, c := range []struct {
		query string
		want  []string // the whole ranking
	}{
		{"please help me", nil},
		{"I want to know more", nil},
		{"Can you tell me, please?", nil},
		{"から", nil},
		{"のから", nil},
		{"de la en", nil},
		{"¿Dónde está?", nil},
		{"trabajo de camarero en Madrid", []string{"buscar_empleo"}},
		{"busco trabajo de camarero", []string{"buscar_empleo"}},
		{"東京から大阪までの電車", []string{"ja_train_route"}},
		{"日本語から英語に翻訳", []string{"ja_translate"}},
		{"please check an email address", []string{"Email_Checkup_email_format"}},
		{"help_center_search", []string{"help_center_search"}}, // a name still names its tool
	} {
		if got := names(ix.Search(c.query, 20)); !slices.Equal(got, c.want) {
			t.Errorf("Search(%q) = %q, want %q", c.query, got, c.want)
		}
	}
	checkAgainstReference(t, ix, []string{"please help me", "trabajo de camarero en Madrid", "東京から大阪までの電車", "de la en ciudad"}, []int{1, 5})
}
